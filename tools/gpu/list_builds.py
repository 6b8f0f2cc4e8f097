#!/usr/bin/env python3
"""Prints one line per build of every case for tools/gpu/build.sh: OUTPUT_STEM<TAB>SOURCE<TAB>FLAGS...
(tab-separated). Reads the BUILDS literals only, so it needs neither torch nor triton."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import artifact, case_names, read_builds  # noqa: E402


def build_lines(names=None):
    """[(output stem, source path, [flags])] for the named cases (default: all)."""
    lines = []
    for name in names or case_names():
        for variant, b in read_builds(name).items():
            flags = list(b.get('flags', []))
            if 'num_warps' in b:
                flags += ['--num-warps', str(b['num_warps'])]
            lines.append((artifact(name, variant), b['src'], flags))
    return lines


if __name__ == '__main__':
    for stem, src, flags in build_lines(sys.argv[1:] or None):
        print('\t'.join([stem, src] + flags))
