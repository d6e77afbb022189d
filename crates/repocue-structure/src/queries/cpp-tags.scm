; C++ additions to the shipped tags query and to c-tags.scm: namespaces, qualified and
; special function names, alias declarations, namespace-scope variables.

(namespace_definition
  name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.module

(function_declarator
  declarator: [(qualified_identifier) (destructor_name) (operator_name)] @name) @definition.function

(alias_declaration name: (type_identifier) @name) @definition.type

; A class defined under its enclosing class's name (leveldb's `struct DBImpl::Writer {`), and
; a template's specialization (fmt's `template <> struct formatter<bytes> {`), named by the
; template: without these their members read as the namespace's functions and fields.

(class_specifier name: (qualified_identifier) @name body: (_)) @definition.class

(struct_specifier name: (qualified_identifier) @name body: (_)) @definition.class

(class_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.class

(struct_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.class

(namespace_definition body: (declaration_list (declaration) @definition.variable))

; References: qualified and member calls.

(call_expression function: (qualified_identifier name: (identifier) @name)) @reference.call

(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call

; Template parameters are not references.

(type_parameter_declaration (type_identifier) @local.definition)
