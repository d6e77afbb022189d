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

; An attribute uses its class, named without its `Attribute` suffix (`[Tracked]` of
; `TrackedAttribute`: see the engine).

(attribute name: (identifier) @name @reference.type)

(object_creation_expression type: (generic_name (identifier) @name)) @reference.class

; Generic types by their name (`AbstractValidator<Person>`, `IEnumerable<IValidationRule>`):
; the shipped query captures a base list's whole `AbstractValidator<Person>`, no name. And the
; types of properties, returns and type arguments, the type of a static member
; (`Policy.Handle<T>()`, `ValidatorOptions.Global`), a generic method's call.

(base_list (generic_name (identifier) @name)) @reference.class

(parameter type: (generic_name (identifier) @name)) @reference.type

(variable_declaration type: (generic_name (identifier) @name)) @reference.class

(property_declaration
  type: [(identifier) @name (generic_name (identifier) @name)]) @reference.type

(method_declaration
  returns: [(identifier) @name (generic_name (identifier) @name)]) @reference.type

(type_argument_list [(identifier) @name (generic_name (identifier) @name)]) @reference.type

(typeof_expression type: [(identifier) @name (generic_name (identifier) @name)]) @reference.type

; A static member's type, not a variable's member: C# names types (and properties) in
; PascalCase, locals and parameters in camelCase.
(member_access_expression
  expression: (identifier) @name
  (#match? @name "^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$")) @reference.send

(member_access_expression name: (generic_name (identifier) @name)) @reference.send

(invocation_expression function: (generic_name (identifier) @name)) @reference.call

; Generic parameters are not references.

(type_parameter name: (identifier) @local.definition)
