# The two commands a fresh clone needs: `make run` and `make test`.
# Both create .venv and install what they need; both are quick once set up.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Compiled bytecode is kept between runs, outside the tree: an environment that sets
# PYTHONDONTWRITEBYTECODE (this machine's does) otherwise makes every run, every test worker
# and every CLI subprocess compile the project and rewrite the tests again (about 4 s of a
# worker's start, and a third of `make check`).
unexport PYTHONDONTWRITEBYTECODE
export PYTHONPYCACHEPREFIX := $(CURDIR)/build/pycache

.PHONY: run test check lint imports bench venv sysdeps clean appliance-test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

# Debian packages the tests need: systemd's analyzers, GL/SDL for Kivy offscreen, strace for crash tests.
sysdeps:
	@sh tests/sysdeps.sh

run: venv
	$(BIN)/tablekeeper run

# Both tiers run on every core (pytest-xdist): the tests share no fixed path or port.
test: venv sysdeps lint
	$(BIN)/python -m pytest -q -p no:cacheprovider -n auto --ignore=tests/appliance tests

# The fast tier, after every change (under a minute): everything but the slow tests (serve
# and MicroPython subprocesses, waits on a pty or a watchdog, a real Mosquitto), the
# process-killing and power-cut end-to-end suites and the rendered app; the rule machines play
# fewer and shorter random games, the generated journals hold fewer games (tests/conftest.py).
check: venv imports
	$(BIN)/python -m pytest -q -p no:cacheprovider -n auto -m "not slow" --hypothesis-profile=fast \
		--ignore=tests/e2e --ignore=tests/ui/test_app.py --ignore=tests/appliance tests

# Lint (ruff) and types (mypy: strict on engine/, checked everywhere else); settings in
# pyproject.toml. Both run, and the target fails if either finds something. mypy cannot map
# the package-dir layout (tablekeeper.engine is engine/, ...) by itself: it reads a tree of
# symlinks in build/mypy (mypy_path in pyproject.toml).
MYPY_TREE := build/mypy/tablekeeper
$(MYPY_TREE):
	@mkdir -p $(MYPY_TREE) && for d in engine hardware ui firmware; do ln -sfn ../../../$$d $(MYPY_TREE)/$$d; done

# The import contracts in pyproject.toml ([tool.importlinter]), read through the same tree.
imports: venv $(MYPY_TREE)
	cd build/mypy && PYTHONPATH=. ../../$(BIN)/lint-imports --config ../../pyproject.toml

lint: venv $(MYPY_TREE) imports
	@status=0; \
	echo "$(BIN)/ruff check ."; $(BIN)/ruff check . || status=1; \
	echo "$(BIN)/mypy -p tablekeeper.engine -p tablekeeper.hardware -p tablekeeper.ui -p tablekeeper.firmware"; \
	$(BIN)/mypy -p tablekeeper.engine -p tablekeeper.hardware -p tablekeeper.ui -p tablekeeper.firmware || status=1; \
	exit $$status

# The appliance booted for real (not part of test or check): a Debian bookworm VM under QEMU runs
# systemd/install.sh, reboots into the kiosk, and takes TABLEKEEPER_APPLIANCE_CUTS (50) power cuts.
# The image is cached in ~/.cache/tablekeeper-appliance; screenshots and logs go to build/appliance/.
# Needs root once (the host's packages, building the image). docs/install.md, "Checked in a virtual machine".
appliance-test: venv
	@sh tests/appliance/sysdeps.sh
	$(BIN)/python -m pytest -q -s -p no:cacheprovider -m appliance tests/appliance

bench: venv
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info
