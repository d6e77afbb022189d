; Definitions the shipped tags query lacks: enums and their constants, records,
; annotation types, constructors, fields and interface constants.

(enum_declaration name: (identifier) @name) @definition.enum

(enum_constant name: (identifier) @name) @definition.constant

(record_declaration name: (identifier) @name) @definition.class

(annotation_type_declaration name: (identifier) @name) @definition.interface

(constructor_declaration name: (identifier) @name) @definition.method

(field_declaration
  declarator: (variable_declarator name: (identifier) @name)) @definition.field

(constant_declaration
  declarator: (variable_declarator name: (identifier) @name)) @definition.constant

; References: type uses.

(type_identifier) @name @reference.type

; Generic parameters are not references.

(type_parameter (type_identifier) @local.definition)
