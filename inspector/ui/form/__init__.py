"""Forms for MCP tool `inputSchema`s: `ToolForm` (Form + JSON tabs) over `FormView` (the widgets)."""

from inspector.ui.tools.form.tool_form import ToolForm
from inspector.ui.tools.form.view import FormView

__all__ = ["FormView", "ToolForm"]
