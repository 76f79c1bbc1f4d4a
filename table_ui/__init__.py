"""table_ui: the table's web display, history and PIN-protected admin (FastAPI).

``create_app(controller)`` in :mod:`table_ui.app` builds the whole site around one running
:class:`controller.core.Controller`.
"""
