(import_statement source: (string) @import)

(export_statement source: (string) @import)

(export_statement source: (string) @star_export)

(call_expression
  function: (identifier) @_require
  arguments: (arguments . (string) @import)
  (#eq? @_require "require"))

(call_expression
  function: (import)
  arguments: (arguments . (string) @import))

; Names exported by a separate statement: `export { a, b as c }`, `export default a`.

(export_statement
  !source
  (export_clause (export_specifier name: (identifier) @export)))

(export_statement value: (identifier) @export)

; The module's default export: `export default ky`, `export default class Ky {}`,
; `export default function ky() {}`, and a CommonJS module's `module.exports = a`.

(export_statement value: (identifier) @default_export)

(export_statement
  "default"
  declaration: [
    (class_declaration name: (_) @default_export)
    (function_declaration name: (_) @default_export)
  ])

(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports)
  right: (identifier) @default_export
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

; Names a CommonJS module exports: `module.exports = a`, `exports = module.exports = a`,
; `exports.b = a`, `module.exports.b = a`, `module.exports = { a, b: c }`.

(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports)
  right: [
    (identifier) @export
    (object [(shorthand_property_identifier) @export (pair value: (identifier) @export)])
  ]
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

(assignment_expression
  left: (member_expression
    object: [
      (identifier) @_exports
      (member_expression
        object: (identifier) @_module
        property: (property_identifier) @_exports
        (#eq? @_module "module"))
    ])
  right: (identifier) @export
  (#eq? @_exports "exports"))

; Names handed on (`@reexport`, see `FileFacts::reexports`) and the references that only a
; default export or a destructured require makes. Here, not in the tags query: the
; tree-sitter-tags configuration knows no such capture.

(export_statement
  (export_clause (export_specifier name: (identifier) @reexport !alias))
  source: (_))

; Handed on under another name (`export { createRecursiveProxy as createTRPCRecursiveProxy }
; from`): the module's name is the alias, which its source does not define, so neither name is
; listed (trpc's index was listed as exporting `createRecursiveProxy`, which it does not); a
; reference to the source's name keeps the use.

(export_statement
  (export_clause
    (export_specifier
      name: (identifier) @name
      alias: (identifier) @_alias
      (#not-eq? @name "default")) @reference.import)
  source: (_))

; A module's default export handed on under a name (`export { default as NodePath } from
; "./path"`) is that name's definition there; a default import (`import Parser from
; "./parser"`) uses it.

(export_statement
  (export_clause
    (export_specifier
      name: (identifier) @_default
      alias: (identifier) @name
      (#eq? @_default "default")) @reference.import)
  source: (_))

(export_statement
  (export_clause
    (export_specifier
      name: (identifier) @_default
      alias: (identifier) @reexport
      (#eq? @_default "default")))
  source: (_))

(import_clause (identifier) @name) @reference.import

; Names destructured from a required module (`const { Router } = require("./router")`).

(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @name) @reference.import
  value: (call_expression
    function: (identifier) @_require
    (#eq? @_require "require")))
