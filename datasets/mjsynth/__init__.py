"""mjsynth: synthetic photos of finished mahjong hands, for training the tile detector and reader.

The pipeline, one module per stage:

- ``faces``       what a face is: its size, the face classes, styles, sources
- ``artwork``     tile face images per (style, code), from installed artwork and the procedural renderer
- ``procedural``  faces that no artwork set has (red fives, white-dragon frames, index letters, flowers)
- ``hands``       legal complete winning hands (the ground truth)
- ``layout``      where each tile of a hand lies on the table (3D poses, roles, groups)
- ``tilebody``    3D-looking tiles: a textured front face, thickness with a coloured back layer
- ``backgrounds`` procedural table textures
- ``camera``      the pinhole camera and the photo degradations (blur, noise, white balance, JPEG)
- ``scene``       one photo: layout + camera + rendering + labels
- ``writers``     YOLO detection / classification folders and per-image manifests
- ``manifest``    the manifest's keys and their types (typed dicts; types only)
"""

from __future__ import annotations

__all__ = ["__version__"]
__version__ = "0.1.0"
