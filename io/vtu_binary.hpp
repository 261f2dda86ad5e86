#pragma once
// Binary VTK: re-encodes an ASCII XML VTK file (as io/vtk_output.cpp writes it) with its data in
// one <AppendedData encoding="raw"> section, as ParaView's "appended raw" files:
//   every <DataArray ... format="ascii"> values </DataArray> becomes
//   <DataArray ... format="appended" offset="N"/>, N the array's byte offset after the "_" that
//   opens the appended data; the values, typed (Float64, Int64, UInt8; little-endian), form one block:
//   uncompressed: a UInt64 byte count, then the bytes (VTKFile header_type="UInt64");
//   zlib (VTKFile compressor="vtkZLibDataCompressor"): a UInt64 header [number of blocks, block
//     size (32 KiB), size of the last partial block (0: full), compressed size of each block], then
//     each block of the bytes compressed by zlib's compress2 (level 6).
// The numbers are those of the ASCII text (17 significant digits: the same doubles; test
// io.vtk_binary). Parsing the text costs about as much as writing it. Sizes (the sheared periodic
// example, 400 spheres with contacts and cell, 6 files): ASCII 215 kB, raw 190 kB (integers and
// zeros are short as text, 8 bytes as Int64 / Float64), zlib 73 kB.

#include <string>
#include <string_view>

namespace dem::io {

// Whether this build has zlib (CMake found it: DEM_HAVE_ZLIB).
bool vtkZlibAvailable();

// Throws std::runtime_error on a document it does not recognise or a zlib error.
std::string appendedBinaryVtu(std::string_view ascii, bool compress);

}  // namespace dem::io
