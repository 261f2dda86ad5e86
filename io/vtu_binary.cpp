#include "vtu_binary.hpp"

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#ifdef DEM_HAVE_ZLIB
#include <zlib.h>
#endif

namespace dem::io {

static_assert(std::endian::native == std::endian::little, "the VTK files say byte_order=\"LittleEndian\"");

namespace {
[[noreturn]] void fail(const std::string& what) {
  std::string m("binary VTK: ");
  m += what;
  throw std::runtime_error(m);
}

template <class T>
void appendPod(std::string& s, T v) {
  char b[sizeof v];
  std::memcpy(b, &v, sizeof v);
  s.append(b, sizeof v);
}

// The next number of `text` from `p` (std::from_chars: no copy of the text, exact for doubles).
template <class T>
T parseNumber(const char*& p, const char* end, std::string_view type) {
  T v{};
  const auto r = std::from_chars(p, end, v);
  if (r.ec != std::errc()) fail(std::string("a value that is not a number in a DataArray of ").append(type));
  p = r.ptr;
  return v;
}

// The values of one ASCII DataArray as bytes of its type.
std::string typedBytes(std::string_view type, std::string_view text) {
  std::string out;
  const char* p = text.data();
  const char* const end = p + text.size();
  while (true) {
    while (p != end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) ++p;
    if (p == end) break;
    if (type == "Float64") appendPod(out, parseNumber<double>(p, end, type));
    else if (type == "Int64") appendPod(out, parseNumber<std::int64_t>(p, end, type));
    else if (type == "UInt8") appendPod(out, parseNumber<std::uint8_t>(p, end, type));
    else fail(std::string("DataArray type not handled: ").append(type));
  }
  return out;
}

// VTK's compressed block: header [n, block size, last partial size, compressed sizes...], then the blocks.
std::string zlibBlock(const std::string& bytes) {
#ifdef DEM_HAVE_ZLIB
  constexpr std::size_t kBlock = 32768;  // uncompressed bytes per zlib block (VTK's default)
  const std::size_t n = (bytes.size() + kBlock - 1) / kBlock;
  std::string header, data;
  appendPod(header, std::uint64_t{n});
  appendPod(header, std::uint64_t{kBlock});
  appendPod(header, std::uint64_t{bytes.size() % kBlock});
  for (std::size_t b = 0; b < n; ++b) {
    const std::size_t len = std::min(kBlock, bytes.size() - b * kBlock);
    std::vector<Bytef> out(compressBound(static_cast<uLong>(len)));
    uLongf outLen = static_cast<uLongf>(out.size());
    const auto* in = reinterpret_cast<const Bytef*>(bytes.data() + b * kBlock);
    if (compress2(out.data(), &outLen, in, static_cast<uLong>(len), 6) != Z_OK) fail("zlib compress2 failed");
    appendPod(header, std::uint64_t{outLen});
    data.append(reinterpret_cast<const char*>(out.data()), outLen);
  }
  return header + data;
#else
  (void)bytes;
  fail("this build has no zlib");
#endif
}

// The attribute value attr="..." inside a start tag.
std::string_view attribute(std::string_view tag, std::string_view attr) {
  std::string key(" ");
  key.append(attr);
  key.append("=\"");
  const std::size_t at = tag.find(key);
  if (at == std::string_view::npos) return {};
  const std::size_t from = at + key.size(), to = tag.find('"', from);
  return tag.substr(from, to - from);
}
}  // namespace

bool vtkZlibAvailable() {
#ifdef DEM_HAVE_ZLIB
  return true;
#else
  return false;
#endif
}

std::string appendedBinaryVtu(std::string_view ascii, bool compress) {
  const std::string_view fileTag = "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\"";
  const std::size_t head = ascii.find(fileTag);
  const std::size_t close = ascii.rfind("</VTKFile>");
  if (head == std::string_view::npos || close == std::string_view::npos) fail("not a VTK UnstructuredGrid file");
  std::string xml(ascii.substr(0, head + fileTag.size()));
  xml += " header_type=\"UInt64\"";
  if (compress) xml += " compressor=\"vtkZLibDataCompressor\"";
  std::string appended;
  std::size_t pos = head + fileTag.size();
  while (true) {
    const std::size_t open = ascii.find("<DataArray ", pos);
    if (open == std::string_view::npos || open > close) break;
    const std::size_t tagEnd = ascii.find('>', open);
    const std::size_t valuesEnd = ascii.find("</DataArray>", tagEnd);
    if (tagEnd == std::string_view::npos || valuesEnd == std::string_view::npos) fail("an unterminated DataArray");
    const std::string_view tag = ascii.substr(open, tagEnd - open);
    const std::size_t fmt = tag.find(" format=\"ascii\"");
    if (fmt == std::string_view::npos) fail("a DataArray that is not ASCII");
    xml.append(ascii.substr(pos, open - pos));
    xml.append(tag.substr(0, fmt));
    xml += " format=\"appended\" offset=\"";
    xml += std::to_string(appended.size());
    xml += "\"/>";
    const std::string bytes = typedBytes(attribute(tag, "type"), ascii.substr(tagEnd + 1, valuesEnd - tagEnd - 1));
    if (compress) appended += zlibBlock(bytes);
    else {
      appendPod(appended, std::uint64_t{bytes.size()});
      appended += bytes;
    }
    pos = valuesEnd + std::string_view("</DataArray>").size();
  }
  xml.append(ascii.substr(pos, close - pos));
  xml += "  <AppendedData encoding=\"raw\">\n   _";
  xml += appended;
  xml += "\n  </AppendedData>\n</VTKFile>\n";
  return xml;
}

}  // namespace dem::io
