(import_statement source: (string) @import)

(export_statement source: (string) @import)

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
