# `make demo` and `make test` each create .venv and install schedgen into it
# when needed (the stamp is refreshed when pyproject.toml changes).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_PAYLOAD := payloads/matmul_bias_relu.mlir
DEMO_OUT := build/demo

CORPUS_VENV := .venv-corpus

.PHONY: demo test schedules corpus corpus-models clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	@mkdir -p $(DEMO_OUT)
	@echo "== schedgen explain $(DEMO_PAYLOAD) --target npu-256k --graph $(DEMO_OUT)/plan.dot"
	@$(BIN)/schedgen explain $(DEMO_PAYLOAD) --target npu-256k --graph $(DEMO_OUT)/plan.dot
	@echo
	@echo "== schedgen generate -> $(DEMO_OUT)/schedule.mlir"
	@$(BIN)/schedgen generate $(DEMO_PAYLOAD) --target npu-256k -o $(DEMO_OUT)/schedule.mlir
	@echo "== schedgen apply -> $(DEMO_OUT)/tiled.mlir"
	@$(BIN)/schedgen apply $(DEMO_PAYLOAD) $(DEMO_OUT)/schedule.mlir -o $(DEMO_OUT)/tiled.mlir
	@echo "== schedgen verify"
	@$(BIN)/schedgen verify $(DEMO_PAYLOAD) $(DEMO_OUT)/schedule.mlir

# Tests run in TEST_JOBS worker processes (pytest-xdist); CI's machine has 2 cores.
TEST_JOBS ?= 2

test: $(STAMP)
	$(BIN)/python -m pytest -q -n $(TEST_JOBS)

# Regenerate the checked-in schedules (tests/test_schedules_fresh.py checks them).
schedules: $(STAMP)
	$(BIN)/python -m schedgen.schedules

# The real-model corpus (corpus/make_corpus.py): torch, torchvision, transformers,
# timm and torch-mlir go into their own venv (the `corpus` extra), never into .venv.
$(CORPUS_VENV)/.installed: pyproject.toml
	test -x $(CORPUS_VENV)/bin/python || $(PYTHON) -m venv $(CORPUS_VENV)
	$(CORPUS_VENV)/bin/python -m pip install --quiet -e '.[corpus]'
	touch $@

# Re-export the checked-in blocks (corpus/*.mlir + .npz).
corpus: $(CORPUS_VENV)/.installed
	$(CORPUS_VENV)/bin/python corpus/make_corpus.py

# Whole models (tens of MB of weights) into build/corpus/, for benchmarks/real_models.py.
corpus-models: $(CORPUS_VENV)/.installed
	$(CORPUS_VENV)/bin/python corpus/make_corpus.py --models

clean:
	rm -rf build $(VENV) $(CORPUS_VENV)
