"""Every way a :class:`vision.result.HandResult` is shown, one module per output kind.

- :mod:`.text`: the ``photo`` command's lines (the tiles read, the hand, the candidates, the
  score) and what to check on stderr;
- :mod:`.records`: the JSON of ``photo --json``, of each line of ``photos`` and of the camera's
  ``readings.jsonl``;
- :mod:`.csv_row`: the photos CSV's cells;
- :mod:`.page`: the phone page's payload, with what to check as notice kinds (:mod:`.notices`);
- :mod:`.camera`: the camera's overlay lines, its frozen breakdown and its report lines;
- :mod:`.order`: the reading order the text and the page share.

A front end (the CLI, the page, the camera, the session's photo reader) calls one of these and adds
nothing of its own, so a change of the result shows the same everywhere; like ultralytics'
``Results`` (boxes kept once, every export read from them), each renderer reads the one result
and the score it holds. These modules import no front end (``tests/test_import_graph.py``). A
typed hand's lines and record are :mod:`scoring.render`, which these reuse for the hand and the
candidates.
"""
