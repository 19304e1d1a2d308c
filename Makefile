# Two commands for a newcomer: `make run` and `make test`. Both work on a machine with only
# Python 3.11 and make: the project's own files install everything else.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
TYPECHECK := build/typecheck/mahjong_camera_scorer
# An editable install of this project makes setuptools announce, on every install, the import hook
# it installs ("Editable installation ... folders with the same name as your package"): the cause is
# pyproject.toml's [tool.setuptools.package-dir], which installs vision/, scoring/, models/,
# examples/ and datasets/mjsynth/ under mahjong_camera_scorer (.vision, .scoring, .models,
# .examples, .mjsynth), so a plain path entry cannot serve them. That is wanted and the message tells a developer nothing to do: it is
# filtered by its text (only that message; any other warning still shows).
PIP := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip

.PHONY: run test test-fast typecheck lint venv wheel system-deps models dataset clean help

help:
	@echo "make run     create .venv, install, score the bundled example"
	@echo "make test    same venv plus test extras, run the whole test suite, the type checker, the linter and the formatter check"
	@echo "make test-fast  the quick loop: the tests not marked slow or browser (see tests/conftest.py)"
	@echo "make wheel   build the sdist and the wheel into dist/ (pipx install dist/*.whl)"
	@echo "make system-deps  Debian tile artwork, CJK fonts and chromium (root; for the generator and browser tests)"
	@echo "make models  retrain the detector and the tile reader from scratch (CPU, see models/README.md)"

$(BIN)/python:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is needed, found " + sys.version' \
		|| { echo "error: set PYTHON=/path/to/python3.11"; exit 1; }
	$(PYTHON) -m venv $(VENV) || { echo "error: '$(PYTHON) -m venv' failed (on Debian: apt-get install python3-venv)"; exit 1; }
	$(PIP) install -q --upgrade pip

$(VENV)/.installed-run: $(BIN)/python pyproject.toml
	$(PIP) install -q -e .
	@touch $@

$(VENV)/.installed-test: $(BIN)/python pyproject.toml
	$(PIP) install -q -e '.[test,synth]'
	-$(PIP) install -q -e '.[peer]' \
		|| echo "note: PyMahjongGB did not build (no C++ compiler?): the MCR differential test will skip"
	@touch $@ $(VENV)/.installed-run

venv: $(VENV)/.installed-run

run: $(VENV)/.installed-run
	@echo '$$ mahjong-score photo examples/hand.jpg --rules riichi --seat W --win-by self_draw --annotate examples/hand-annotated.jpg --force'
	@$(BIN)/mahjong-score photo examples/hand.jpg --rules riichi --seat W --win-by self_draw \
		--annotate examples/hand-annotated.jpg --force
	@echo
	@echo '$$ mahjong-score hand "234m55p12345678s tsumo 9s seat=S riichi dora=1z ura=9m" --rules riichi'
	@$(BIN)/mahjong-score hand "234m55p12345678s tsumo 9s seat=S riichi dora=1z ura=9m" --rules riichi
	@echo
	@echo 'mahjong-score is installed in $(BIN), not on your PATH: run it as $(BIN)/mahjong-score,'
	@echo 'or activate the environment once per shell:  source $(BIN)/activate  (then: mahjong-score --help)'

models:
	bash scripts/make_models.sh

# The sdist and the wheel from it, as an index would get them: the wheel carries the models, the
# page and the examples (pyproject.toml). `pipx install dist/mahjong_camera_scorer-*.whl`.
wheel: $(BIN)/python
	$(PIP) install -q "build>=1.2"
	$(BIN)/python -m build --outdir dist .

test: $(VENV)/.installed-test $(TYPECHECK)
	$(BIN)/python -m pytest
	$(BIN)/mypy
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test-fast: $(VENV)/.installed-test
	$(BIN)/python -m pytest -m "not slow and not browser and not install"

# strict on scoring/, vision/ and the generator datasets/mjsynth/ (pyproject.toml [tool.mypy]), by
# the names they install under: the type checker reads them through links named so (build/ is ignored)
typecheck: $(VENV)/.installed-test $(TYPECHECK)
	$(BIN)/mypy

$(TYPECHECK):
	mkdir -p $@
	ln -sfn ../../../vision $@/vision
	ln -sfn ../../../scoring $@/scoring
	ln -sfn ../../../datasets/mjsynth $@/mjsynth

# Debian packages some tests need (they skip with a message without them); root or sudo.
system-deps:
	-bash scripts/install_artwork.sh
	-bash scripts/install_browser.sh

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache build dist *.egg-info
