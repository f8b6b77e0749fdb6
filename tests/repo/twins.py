#!/usr/bin/env python3
"""Twins by name: every function of the GPU model has a namesake in its CPU reference, so that a
reviewer can hold the two side by side (docs/harness.md, "Twins by name").

The GPU model is the shader code that computes the model of docs/model.md, not the pipeline
around it. For the flock (and its ecosystem) that is shaders/flock/model.glsl and
shaders/flock/ecosystem.glsl; for the floor plan, shaders/plan/plan.glsl and the two passes that
define rules of their own as functions, plan_move.comp (the death check, the move) and
plan_branch.comp (branching). The other shader files of those folders that define functions are
plumbing, listed in PLUMBING_FILES with what they hold; a function defined in a file of neither
list fails the check, so a new model file cannot slip past it. The passes' main() functions are
the pipeline (docs/gpu.md) and are not compared.

The CPU references are src/flock/model.cpp, include/murmur/flock/model.hpp and
src/flock/cpu_flock.cpp for the flock, src/plan/plan.cpp and include/murmur/plan/plan.hpp for the
plan. A namesake is a function (or member function) declared or defined there under the same
name. GPU_ONLY lists the few GPU functions that have none, each with the reason; it fails when
an entry no longer names a GPU model function, so it only shrinks.

    python3 tests/repo/twins.py [REPO_ROOT]
"""
import re
import sys
from pathlib import Path

# Each model: its GPU files and the CPU files that hold its namesakes.
MODELS = {
    'flock': {
        'gpu': ['shaders/flock/model.glsl', 'shaders/flock/ecosystem.glsl'],
        'cpu': ['src/flock/model.cpp', 'include/murmur/flock/model.hpp',
                'src/flock/cpu_flock.cpp'],
    },
    'plan': {
        'gpu': ['shaders/plan/plan.glsl', 'shaders/plan/plan_move.comp',
                'shaders/plan/plan_branch.comp'],
        'cpu': ['src/plan/plan.cpp', 'include/murmur/plan/plan.hpp'],
    },
}

# Shader files of shaders/flock and shaders/plan that define functions and are not the model.
PLUMBING_FILES = {
    'shaders/flock/sim_buffers.glsl': 'the boid buffers and the neighbour grid binning',
    'shaders/flock/eco_buffers.glsl': "the ecosystem's buffers and its per-species tally",
    'shaders/flock/boid_texels.glsl': 'boid records read as texels',
    'shaders/flock/grid_search.glsl': "the neighbour grid's cell spans and wrapped columns",
    'shaders/flock/steer_grid.comp': 'the sorted slots of a run of grid cells, and a candidate '
                                     "offered to a topological boid's list",
    'shaders/flock/nearest.glsl': "a topological boid's list of its nearest candidates (the "
                                  "CPU's is the k-d tree's heap, KdTree2D::query_nearest)",
    'shaders/flock/population_update.comp': 'the dispatch sizes of the next step',
    'shaders/plan/plan_listed.glsl': "the lists of a step's movers, kept on the GPU only",
}

# GPU model functions with no CPU namesake, each with the reason.
GPU_ONLY = {
    'empty_sums': "GLSL structs have no default member initialisers (C++: NeighbourSums{})",
    'no_sensing': "the same for Sensing (C++ keeps the sensing in NeighbourSums)",
    'food_cell_coords': "the food grid's binning: the CPU's GridShape::cell_of (src/flock/grid.cpp)",
    'food_cell_index': 'index unfolding of a food cell (row * F_x + column)',
    'plan_grid_index': "index unfolding of a steering grid cell, inline in the CPU's crowd_of",
    'plan_seed': 'buffer access: the 64-bit seed from the two words of the uniform record',
    'record_no_strike': "the ecosystem's hunt buffer entry of a vicsek or couzin boid; the CPU "
                        'keeps no such buffer (its catching reads NeighbourSums)',
}

KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'else', 'do', 'case', 'sizeof', 'new',
            'delete', 'throw', 'catch', 'alignof', 'decltype', 'static_assert', 'defined'}
# A function's name where it is declared or defined: after its return type (a word, a template's
# closing bracket, or a pointer or reference mark, then space), maybe qualified (Class::name).
DECLARED = re.compile(r'[\w>*&]\s+(?:~?\w+::)*(~?\w+)\s*\(')
SCOPE_OPENER = re.compile(r'\b(namespace|struct|class|union|enum)\b')


def without_comments_and_literals(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.DOTALL)
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(?:\\.|[^'\\\n])*'", "''", text)
    return re.sub(r'^\s*#[^\n]*', '', text, flags=re.MULTILINE)


def declared_functions(path):
    """The names of the functions declared or defined at file, namespace or class scope of a C++
    or GLSL file: text inside a function body (calls, local variables) is skipped."""
    text = without_comments_and_literals(path.read_text())
    names = set()
    stack = []  # per open brace: whether it opens a scope (namespace, class) or a body
    chunk = []  # the text since the last brace or semicolon at scope level
    for ch in text:
        in_body = any(not scope for scope in stack)
        if ch == '{':
            head = ''.join(chunk)
            if not in_body:
                names.update(n for n in DECLARED.findall(' ' + head) if n not in KEYWORDS)
            stack.append(not in_body and SCOPE_OPENER.search(head) is not None
                         and '(' not in head.split('=')[0].split(':')[0])
            chunk = []
        elif ch == '}':
            if stack:
                stack.pop()
            chunk = []
        elif ch == ';':
            if not in_body:
                names.update(n for n in DECLARED.findall(' ' + ''.join(chunk))
                             if n not in KEYWORDS)
            chunk = []
        elif not in_body:
            chunk.append(ch)
    return names


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2])
    failures = []
    gpu_names = set()
    model_files = set()
    for model, files in MODELS.items():
        for rel in files['gpu'] + files['cpu']:
            if not (root / rel).is_file():
                failures.append(f'{rel}: listed as the {model} model, but there is no such file')
        cpu = set()
        for rel in files['cpu']:
            if (root / rel).is_file():
                cpu |= declared_functions(root / rel)
        for rel in files['gpu']:
            model_files.add(rel)
            if not (root / rel).is_file():
                continue
            for name in sorted(declared_functions(root / rel) - {'main'}):
                gpu_names.add(name)
                if name not in cpu and name not in GPU_ONLY:
                    failures.append(f'{rel}: {name}() has no namesake in the CPU reference '
                                    f'({", ".join(files["cpu"])})')
    for name in sorted(set(GPU_ONLY) - gpu_names):
        failures.append(f'GPU_ONLY lists {name}(), which no GPU model file defines any more')
    for rel in sorted(PLUMBING_FILES):
        if not (root / rel).is_file():
            failures.append(f'{rel}: listed as plumbing, but there is no such file')
    for folder in ('shaders/flock', 'shaders/plan'):
        for path in sorted((root / folder).iterdir()):
            rel = path.relative_to(root).as_posix()
            if path.suffix not in ('.glsl', '.comp') or rel in model_files or rel in PLUMBING_FILES:
                continue
            helpers = sorted(declared_functions(path) - {'main'})
            if helpers:
                failures.append(f'{rel} defines {", ".join(helpers)}: list it as the model (MODELS) '
                                'or as plumbing (PLUMBING_FILES)')
    for failure in failures:
        print(failure)
    if failures:
        print(f'twins: {len(failures)} problem(s)')
        return 1
    print(f'twins: {len(gpu_names)} GPU model functions, '
          f'{len(gpu_names) - len(GPU_ONLY)} with a CPU namesake, {len(GPU_ONLY)} GPU-only')
    return 0


if __name__ == '__main__':
    sys.exit(main())
