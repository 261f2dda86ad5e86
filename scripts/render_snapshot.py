#!/usr/bin/python3
"""Renders one VTK snapshot of dem-run (spheres and the walls/mesh triangles) to a PNG.

usage: render_snapshot.py OUT_DIR STEP IMAGE.png [--view ELEV AZIM] [--clip X]

Reads OUT_DIR/particles_STEP.vtu and OUT_DIR/particles_walls_STEP.vtu (meshio, Debian's
python3-meshio) and draws them with matplotlib (python3-matplotlib): the spheres as markers scaled
by their radius, coloured by speed, and the triangles as a translucent surface. With --clip X only
triangles whose centroid has y >= X are drawn (to see into a drum). Used for the pictures of the
mesh examples in docs/images (see docs/user-guide.md, "Meshes").
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import meshio  # noqa: E402
import numpy as np  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # noqa: E402


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    out, step, image = argv[1], int(argv[2]), argv[3]
    elev, azim, clip = 20.0, -60.0, None
    if "--view" in argv:
        i = argv.index("--view")
        elev, azim = float(argv[i + 1]), float(argv[i + 2])
    if "--clip" in argv:
        clip = float(argv[argv.index("--clip") + 1])
    p = meshio.read(f"{out}/particles_{step:09d}.vtu")
    w = meshio.read(f"{out}/particles_walls_{step:09d}.vtu")
    x = p.points
    r = np.asarray(p.point_data["radius"]).ravel()
    speed = np.linalg.norm(np.asarray(p.point_data["velocity"]), axis=1)
    tris = w.points[w.cells_dict["triangle"]]
    mesh = np.asarray(w.cell_data["mesh"][0]).ravel()
    keep = mesh >= 0  # facets only (an infinite wall's patch is drawn as a floor below)
    if clip is not None:
        keep &= tris.mean(axis=1)[:, 1] >= clip
    fig = plt.figure(figsize=(6, 6), dpi=110)
    ax = fig.add_subplot(projection="3d")
    ax.add_collection3d(Poly3DCollection(tris[keep], facecolor=(0.6, 0.65, 0.75, 0.25), edgecolor=(0.3, 0.3, 0.4, 0.5), linewidth=0.4))
    lo, hi = tris[keep].reshape(-1, 3).min(axis=0), tris[keep].reshape(-1, 3).max(axis=0)
    lo, hi = np.minimum(lo, x.min(axis=0)), np.maximum(hi, x.max(axis=0))
    span = (hi - lo).max() / 2
    mid = (hi + lo) / 2
    # marker area in points^2 from the radius relative to the view's span
    size = (r / span * 150.0) ** 2
    sc = ax.scatter(x[:, 0], x[:, 1], x[:, 2], s=size, c=speed, cmap="viridis", depthshade=True)
    for set_lim, m in ((ax.set_xlim, mid[0]), (ax.set_ylim, mid[1]), (ax.set_zlim, mid[2])):
        set_lim(m - span, m + span)
    ax.set_box_aspect((1, 1, 1))
    ax.view_init(elev=elev, azim=azim)
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_zlabel("z [m]")
    fig.colorbar(sc, ax=ax, shrink=0.6, label="speed [m/s]")
    ax.set_title(f"{out.rstrip('/').split('/')[-1]}, step {step}")
    fig.savefig(image, bbox_inches="tight")


if __name__ == "__main__":
    main(sys.argv)
