; JavaScript-only additions (node types the TypeScript grammars lack): class fields and
; base classes.

(field_definition
  property: [(property_identifier) (private_property_identifier)] @name) @definition.field

(class_heritage (identifier) @name) @reference.class

; References: JSX components (capitalised; lower-case tags are HTML).

(jsx_opening_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.call

(jsx_self_closing_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.call
