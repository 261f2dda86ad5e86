#!/usr/bin/env python3
"""Reads dem-run's VTK output back with meshio, a reader written independently of ours.

Usage: check_vtk_meshio.py DIR [DIR ...]

For every ParaView collection (*.pvd) in each DIR: the collection parses as XML, every DataSet it
lists exists, and meshio reads it as an unstructured grid with finite point coordinates and data.
(meshio 5 cannot read a grid without cells, e.g. the contacts before the first one forms; those
are checked for their structure only.) The particle files must hold one vertex per point and the arrays radius, velocity,
angularVelocity, force, torque, id, material, orientation, angularMomentum, bodyOrientation,
bodyAngularMomentum and clump; contact files hold lines with normalForce, force
and overlap; cell files one hexahedron with H, stress and volume. Exits 1 naming the first
problem, 77 (skipped) when meshio or numpy is not installed.
"""
import os
import sys
import xml.etree.ElementTree as ET

try:
    import meshio
    import numpy as np
except ImportError as e:  # pragma: no cover - environment without the Debian package python3-meshio
    print(f"check_vtk_meshio: skipped ({e}); install the Debian package python3-meshio")
    sys.exit(77)

PARTICLE_ARRAYS = {"radius": 1, "velocity": 3, "angularVelocity": 3, "force": 3, "torque": 3, "id": 1, "material": 1,
                   "orientation": 4, "angularMomentum": 3, "bodyOrientation": 4, "bodyAngularMomentum": 3, "clump": 1}
CONTACT_ARRAYS = {"normalForce": 1, "force": 3, "overlap": 1}
CELL_ARRAYS = {"H": 9, "stress": 9, "volume": 1}
WALL_ARRAYS = {"id": 1, "mesh": 1, "material": 1, "velocity": 3, "force": 3}


def fail(msg):
    print(f"check_vtk_meshio: {msg}")
    sys.exit(1)


def components(a):
    return 1 if a.ndim == 1 else a.shape[1]


def check_arrays(path, data, wanted, count, where):
    for name, comps in wanted.items():
        if name not in data:
            fail(f"{path}: {where} array '{name}' missing (has {sorted(data)})")
        a = np.asarray(data[name])
        if len(a) != count:
            fail(f"{path}: {where} array '{name}' has {len(a)} entries, expected {count}")
        if components(a) != comps:
            fail(f"{path}: {where} array '{name}' has {components(a)} components, expected {comps}")
        if not np.all(np.isfinite(a)):
            fail(f"{path}: {where} array '{name}' is not finite")


def check_vtu(path, kind):
    with open(path, "rb") as f:
        raw = f.read()
    appended = raw.find(b"<AppendedData")  # binary files: the XML before the appended data
    text = raw if appended < 0 else raw[:appended] + b"</VTKFile>"
    piece = ET.fromstring(text).find("./UnstructuredGrid/Piece")
    if piece is None:
        fail(f"{path}: no UnstructuredGrid/Piece")
    if int(piece.get("NumberOfCells")) == 0:
        # An empty grid (no contacts yet) is valid VTK, but meshio 5 cannot read a grid without
        # cells: check its structure here.
        names = {a.get("Name") for a in piece.iter("DataArray")}
        for required in ("Points", "connectivity", "offsets", "types"):
            if required not in names:
                fail(f"{path}: empty grid without the {required} array")
        return 0
    try:
        mesh = meshio.read(path)
    except Exception as e:
        fail(f"{path}: meshio cannot read it: {type(e).__name__}: {e}")
    n = len(mesh.points)
    if mesh.points.shape[1] != 3 or not np.all(np.isfinite(mesh.points)):
        fail(f"{path}: points are not finite 3-vectors")
    cells = {block.type: block.data for block in mesh.cells}
    if kind == "particles":
        check_arrays(path, mesh.point_data, PARTICLE_ARRAYS, n, "point")
        verts = cells.get("vertex")
        if n and (verts is None or len(verts) != n):
            fail(f"{path}: expected {n} vertex cells, got {cells.keys()}")
        if n and not np.all(np.asarray(mesh.point_data["radius"]) > 0):
            fail(f"{path}: a radius is not positive")
    elif kind == "contacts":
        lines = cells.get("line", np.zeros((0, 2)))
        if len(lines) and (lines.min() < 0 or lines.max() >= n):
            fail(f"{path}: a line refers to a point that does not exist")
        data = {k: v[0] for k, v in mesh.cell_data.items()} if len(lines) else {}
        if len(lines):
            check_arrays(path, data, CONTACT_ARRAYS, len(lines), "cell")
    elif kind == "walls":
        tris = cells.get("triangle")
        if tris is None or len(tris) == 0 or tris.min() < 0 or tris.max() >= n:
            fail(f"{path}: expected triangles on its points")
        data = {k: v[0] for k, v in mesh.cell_data.items()}
        check_arrays(path, data, WALL_ARRAYS, len(tris), "cell")
    elif kind == "cell":
        hexes = cells.get("hexahedron")
        if hexes is None or len(hexes) != 1 or n != 8:
            fail(f"{path}: expected one hexahedron on 8 points")
        data = {k: v[0] for k, v in mesh.cell_data.items()}
        check_arrays(path, data, CELL_ARRAYS, 1, "cell")
        if not data["volume"][0] > 0:
            fail(f"{path}: cell volume is not positive")
    return n


def kind_of(pvd_name):
    if pvd_name.endswith("_contacts.pvd"):
        return "contacts"
    if pvd_name.endswith("_cell.pvd"):
        return "cell"
    if pvd_name.endswith("_walls.pvd"):
        return "walls"
    return "particles"


def main(dirs):
    checked = 0
    for d in dirs:
        pvds = sorted(f for f in os.listdir(d) if f.endswith(".pvd"))
        if not pvds:
            fail(f"{d}: no .pvd collection")
        for pvd in pvds:
            root = ET.parse(os.path.join(d, pvd)).getroot()
            if root.tag != "VTKFile" or root.get("type") != "Collection":
                fail(f"{pvd}: not a VTK collection")
            sets = root.findall("./Collection/DataSet")
            if not sets:
                fail(f"{pvd}: empty collection")
            times = [float(s.get("timestep")) for s in sets]
            if times != sorted(times):
                fail(f"{pvd}: timesteps are not increasing")
            for s in sets:
                path = os.path.join(d, s.get("file"))
                if not os.path.isfile(path):
                    fail(f"{pvd}: lists {s.get('file')}, which does not exist")
                check_vtu(path, kind_of(pvd))
                checked += 1
    print(f"check_vtk_meshio: {checked} VTU files in {len(dirs)} directories read back with meshio {meshio.__version__}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    main(sys.argv[1:])
