# Two commands set everything up: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run serve demo test lint worker beat clean lock

# Reinstall only when the project's dependency list or the lock file changes.
$(VENV)/.installed: pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c requirements.lock -e '.[dev]'
	touch $@

# Refresh requirements.lock from a clean environment after changing pyproject.toml.
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/python -m pip install --quiet -e '.[dev]'
	{ sed -n '1,2p' requirements.lock; .lock-venv/bin/python -m pip freeze --exclude-editable; } > requirements.lock.new
	mv requirements.lock.new requirements.lock && rm -rf .lock-venv

install: $(VENV)/.installed

demo: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py load_demo_loans
	$(BIN)/python manage.py load_demo_year

run: demo
	@echo "Ludolog on http://$(HOST):$(PORT)/  (admin: /admin/ as admin / ludolog-demo, API: /api/, schema UI: /api/schema/ui/)"
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: install
	$(BIN)/lint-imports

# The import-linter contracts, then the suite on every core; the wall time is printed at the end.
test: install
	@start=$$(date +%s); $(BIN)/lint-imports && $(BIN)/python -m pytest; status=$$?; \
	echo "make test: wall time $$(( $$(date +%s) - start )) s"; exit $$status

# Started again whenever it exits (ludolog/supervise.py); in production systemd does that.
worker: install
	$(BIN)/python -m ludolog.supervise worker --loglevel=info

beat: install
	$(BIN)/python -m ludolog.supervise beat --loglevel=info

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .hypothesis
