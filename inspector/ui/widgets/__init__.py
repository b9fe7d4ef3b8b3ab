"""Small shared Qt pieces: JSON view, highlighters, layouts, tooltips, key tables, async helpers."""
