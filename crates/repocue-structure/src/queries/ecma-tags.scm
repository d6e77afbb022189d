; Definitions that the shipped JavaScript tags query lacks, for JavaScript and TypeScript
; alike: constructors, private methods and top-level variables.

(method_definition
  name: (property_identifier) @name
  (#eq? @name "constructor")) @definition.method

(method_definition name: (private_property_identifier) @name) @definition.method

(program
  [(lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)
   (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)])

(program
  (export_statement
    declaration: [
      (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)
      (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)
    ]))

; References: names imported from or re-exported out of another module
; (`import { a } from "./x"`, `export { a as b } from "./x"`): what a package's index
; re-exports is its public API.

(import_specifier name: (identifier) @name) @reference.import

(export_statement
  (export_clause (export_specifier name: (identifier) @name) @reference.import)
  source: (_))

; `new ns.Widget()` of `import * as ns`: the shipped query captures the whole
; `ns.Widget`, which names nothing; its property is the class (a value's `new this.Kind()`
; stays a member's use, see `is_member_access`).

(new_expression
  constructor: (member_expression property: (property_identifier) @name)) @reference.class
