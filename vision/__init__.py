"""The camera side of the scorer: photo → detections → tiles → hand, then :mod:`scoring`.

``__version__`` is the tool's one version: ``pyproject.toml`` reads it for the package, and
``mahjong-score --version`` and the web API's docs print it.
"""

__version__ = "0.1.0"
