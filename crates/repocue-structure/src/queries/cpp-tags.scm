; C++ additions to the shipped tags query and to c-tags.scm: namespaces, qualified and
; special function names, alias declarations, namespace-scope variables.

(namespace_definition
  name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.module

(function_declarator
  declarator: [(qualified_identifier) (destructor_name) (operator_name)] @name) @definition.function

(alias_declaration name: (type_identifier) @name) @definition.type

(namespace_definition body: (declaration_list (declaration) @definition.variable))

; References: qualified and member calls.

(call_expression function: (qualified_identifier name: (identifier) @name)) @reference.call

(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call

; Template parameters are not references.

(type_parameter_declaration (type_identifier) @local.definition)
