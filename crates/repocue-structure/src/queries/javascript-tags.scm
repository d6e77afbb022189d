; Definitions the shipped tags query lacks: constructors, private methods, class fields and
; top-level variables.

(method_definition
  name: (property_identifier) @name
  (#eq? @name "constructor")) @definition.method

(method_definition name: (private_property_identifier) @name) @definition.method

(field_definition
  property: [(property_identifier) (private_property_identifier)] @name) @definition.field

(program
  [(lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)
   (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)])

(program
  (export_statement
    declaration: [
      (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)
      (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)
    ]))

; References: base classes.

(class_heritage (identifier) @name) @reference.class
