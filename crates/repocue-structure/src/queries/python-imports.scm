(import_statement name: (dotted_name) @import)

(import_statement name: (aliased_import name: (dotted_name) @import))

(import_from_statement module_name: (_) @import)

; What a module imports at its top level it hands on (`from .app import Flask`: a package's
; `__init__.py` imports its API), not what a function imports to call, nor what it imports
; for type checking alone (`if TYPE_CHECKING:`): rich's root was listed exporting `Inspect`,
; which `inspect()` imports in its body. Under another name, only `import a as a` (the
; explicit re-export idiom); a private alias (`helper as _helper`) is no export.

(module
  (import_from_statement
    name: (dotted_name . (identifier) @reexport .)))

(module
  (import_from_statement
    name: (aliased_import
      name: (dotted_name . (identifier) @reexport .)
      alias: (identifier) @_alias)
    (#eq? @reexport @_alias)))

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
