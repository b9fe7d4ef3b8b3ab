"""Forms for MCP tool `inputSchema`s: `ToolForm` (Form + JSON tabs) over `FormView` (the widgets)."""

from inspector.ui.form.tool_form import ToolForm
from inspector.ui.form.view import FormView

__all__ = ["FormView", "ToolForm"]
