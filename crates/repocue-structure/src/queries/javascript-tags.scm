; JavaScript-only additions (node types the TypeScript grammars lack): class fields and
; base classes.

(field_definition
  property: [(property_identifier) (private_property_identifier)] @name) @definition.field

(class_heritage (identifier) @name) @reference.class

; References: JSX components (capitalised; lower-case tags are HTML).

(jsx_opening_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.call

(jsx_self_closing_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.call

; Parameters: a use of one on its own (`next()`, `callback(err)`) is no use of a definition
; of that name.

(formal_parameters (identifier) @local.definition)

(formal_parameters (assignment_pattern left: (identifier) @local.definition))

(arrow_function parameter: (identifier) @local.definition)
