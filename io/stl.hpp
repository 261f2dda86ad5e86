#pragma once
// STL files (stereolithography: a list of triangles, the format CAD programs export) as the geometry
// of mesh walls (issue 21). Both encodings are read:
//  - binary: an 80-byte header, a little-endian uint32 triangle count N, then N records of 50 bytes
//    (12 little-endian floats: normal, vertex 0, 1, 2; a uint16 attribute), the file exactly
//    84 + 50 N bytes long;
//  - ASCII: `solid name`, then per triangle `facet normal nx ny nz`, `outer loop`, three
//    `vertex x y z`, `endloop`, `endfacet`, and `endsolid name`: keywords in any case, the rest of a
//    solid's first and last line its name, several solids one after the other read as one mesh.
// A file is binary when its size is 84 + 50 N for the N of its header (a binary header may start
// with "solid" too), ASCII when it starts with "solid" otherwise.
// The normal stored in the file is ignored: the vertex order defines the facet (solver/triangle.hpp:
// counter-clockwise seen from the side the normal points to).

#include "solver/triangle.hpp"

#include <cstddef>
#include <limits>
#include <string>

namespace dem::io {

// The triangles of the STL file at `path`, in the file's order. Throws std::runtime_error naming the
// file and what was expected, with the triangle's index (0-based: "triangle 17") and, in an ASCII
// file, the line: a file that cannot be read, an empty file, a binary file whose size does not
// match its triangle count, an ASCII syntax error, a file without triangles, a vertex coordinate
// that is not finite, a degenerate triangle (two equal vertices, or zero area:
// |areaNormal| <= 1e-14 (longest edge)^2).
TriangleMesh readStl(const std::string& path, std::size_t maxBytes = std::numeric_limits<std::size_t>::max());

// Writes `mesh` as an STL file, replacing `path` atomically (io/atomic_file.hpp). ASCII writes every
// coordinate with 17 significant digits, so readStl gives back the same doubles. Binary stores
// floats: the round trip is exact only for coordinates representable as floats (others are rounded
// to the nearest float). The normals written are the unit normals of the vertex order. Throws
// std::invalid_argument for a mesh readStl would refuse (empty, a non-finite coordinate, a
// degenerate triangle, in binary also after rounding to floats, or a coordinate beyond the float
// range) and std::runtime_error naming the file when it cannot be written.
void writeStl(const std::string& path, const TriangleMesh& mesh, bool binary);

}  // namespace dem::io
