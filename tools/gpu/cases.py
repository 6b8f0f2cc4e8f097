"""Finds and loads the benchmark cases of bench/gpu (one module per case, see bench/gpu/casekit.py)."""
import ast
import importlib
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(REPO, 'bench', 'gpu')
NOT_CASES = {'casekit'}


def case_names():
    """The names of all case modules, sorted."""
    return sorted(f[:-3] for f in os.listdir(BENCH)
                  if f.endswith('.py') and not f.startswith('_') and f[:-3] not in NOT_CASES)


def read_builds(name):
    """A case's BUILDS literal, read from its source without importing it (no torch/triton needed)."""
    path = os.path.join(BENCH, name + '.py')
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, 'id', None) == 'BUILDS' for t in node.targets):
            return ast.literal_eval(node.value)
    raise ValueError(f'{path} has no BUILDS literal')


def artifact(name, variant):
    """The file stem of a built variant: '<case>.<variant>', or '<case>' for the variant ''."""
    return f'{name}.{variant}' if variant else name


def load(names=None):
    """Imports the named cases (default: all) and returns their CASE objects, with .name and .builds set."""
    if BENCH not in sys.path:
        sys.path.insert(0, BENCH)
    wanted = names or case_names()
    unknown = sorted(set(wanted) - set(case_names()))
    if unknown:
        raise SystemExit(f'unknown case(s): {", ".join(unknown)}; known: {", ".join(case_names())}')
    result = []
    for name in wanted:
        module = importlib.import_module(name)
        case = module.CASE
        case.name = name
        case.builds = module.BUILDS
        result.append(case)
    return result
