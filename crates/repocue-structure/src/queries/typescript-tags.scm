; Definitions neither the JavaScript nor the TypeScript tags query has: type aliases, enums
; and their members, namespaces, class fields and interface properties.

(type_alias_declaration name: (type_identifier) @name) @definition.type

(enum_declaration name: (identifier) @name) @definition.enum

(enum_body (property_identifier) @name @definition.constant)

(enum_assignment name: (property_identifier) @name) @definition.constant

(internal_module name: (identifier) @name) @definition.module

(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name) @definition.field

(interface_body (property_signature name: (property_identifier) @name) @definition.field)

(type_alias_declaration
  value: (object_type (property_signature name: (property_identifier) @name) @definition.field))

; References: types in heritage clauses and generics.

(extends_clause value: (identifier) @name) @reference.class

(implements_clause (type_identifier) @name) @reference.implementation

(generic_type name: (type_identifier) @name) @reference.type

; Generic parameters are not references.

(type_parameter name: (type_identifier) @local.definition)

; Parameters: a use of one on its own (`next()`, `callback(err)`) is no use of a definition
; of that name.

(required_parameter pattern: (identifier) @local.definition)

(optional_parameter pattern: (identifier) @local.definition)

(arrow_function parameter: (identifier) @local.definition)
