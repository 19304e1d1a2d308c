"""The shipped ONNX models as package data: installed, this folder is the import package
``mahjong_models`` (``pyproject.toml`` maps it), and :mod:`vision.models` finds ``detector.onnx``
and ``reader.onnx`` here through :mod:`importlib.resources`. Their card is ``README.md`` beside them."""
