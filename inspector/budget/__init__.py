"""Token budget: tokenizers, per-tool token breakdown in each host shape, lints, snapshots and their diff.

Pure Python, no Qt: used by the Budget tab (inspector/ui/budget) and by ``mcp-lens tokens``.
"""
