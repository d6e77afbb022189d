; Definitions the shipped tags query lacks: structs, enums and members, records,
; constructors, properties, fields, delegates, qualified and file-scoped namespaces.

(struct_declaration name: (identifier) @name) @definition.struct

(enum_declaration name: (identifier) @name) @definition.enum

(enum_member_declaration name: (identifier) @name) @definition.constant

(record_declaration name: (identifier) @name) @definition.class

(constructor_declaration name: (identifier) @name) @definition.method

(property_declaration name: (identifier) @name) @definition.field

(field_declaration
  (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field

(delegate_declaration name: (identifier) @name) @definition.type

(namespace_declaration name: (qualified_name) @name) @definition.module

(file_scoped_namespace_declaration name: (_) @name) @definition.module

; References: plain calls and parameter types.

(invocation_expression function: (identifier) @name) @reference.call

(parameter type: (identifier) @name) @reference.type

(object_creation_expression type: (generic_name (identifier) @name)) @reference.class

; Generic parameters are not references.

(type_parameter name: (identifier) @local.definition)
