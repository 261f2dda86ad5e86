"""dem: the discrete element library from Python (docs/python.md).

Scenes come from JSON scene files (load_scene), checkpoints (load_checkpoint) or are built here
(Scene, Material); Scene.step() / Scene.run(n, callback, every) advance them with the C++ solver,
bit-identical to dem-run. Particle arrays are read-only NumPy views of the scene's storage.
"""

from ._dem import (  # noqa: F401
    CHECKPOINT_VERSION,
    CheckpointError,
    Material,
    RunawayError,
    Scene,
    SceneError,
    load_checkpoint,
    load_scene,
    load_scene_text,
    max_threads,
    set_threads,
)

__all__ = [
    "CHECKPOINT_VERSION",
    "CheckpointError",
    "Material",
    "RunawayError",
    "Scene",
    "SceneError",
    "load_checkpoint",
    "load_scene",
    "load_scene_text",
    "max_threads",
    "set_threads",
]
