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
