(import_statement name: (dotted_name) @import)

(import_statement name: (aliased_import name: (dotted_name) @import))

(import_from_statement module_name: (_) @import)

; `__all__ = ["Client", …]`: the names a module exports; those it does not define it hands on
; from the modules it imports (`FileFacts::reexports`: httpx's `__init__.py` imports its API
; with `from ._client import *` and lists it here). A list or a tuple, with parentheses or
; without (pydantic's `__all__ = ('BaseModel', …)`, its `main.py`'s `__all__ = 'BaseModel',
; 'create_model'`).
(expression_statement
  (assignment
    left: (identifier) @_all
    right: [
      (list (string (string_content) @export))
      (tuple (string (string_content) @export))
      (expression_list (string (string_content) @export))
    ]
    (#eq? @_all "__all__")))
