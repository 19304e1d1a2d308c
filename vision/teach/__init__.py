"""Teach the reader a player's own tile set: typed codes paired with the tiles of a photo, kept
as a set profile, and used when reading (:mod:`vision.teach.adapt`).

Data flows one way, as everywhere: photo → tiles (the same :class:`vision.pipeline.PhotoReader`)
→ rows paired with the codes (:mod:`vision.teach.pairing`) → taught examples in a
:class:`vision.teach.profile.TileSet` saved by a :class:`vision.teach.store.SetStore`.
"""
