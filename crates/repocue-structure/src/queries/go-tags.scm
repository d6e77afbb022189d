; Definitions the shipped tags query lacks: package-level constants and variables, type
; aliases, struct fields and interface methods.

(source_file
  (const_declaration
    (const_spec name: (identifier) @name) @definition.constant))

(source_file
  (var_declaration
    (var_spec name: (identifier) @name) @definition.variable))

(source_file
  (var_declaration
    (var_spec_list
      (var_spec name: (identifier) @name) @definition.variable)))

(type_alias name: (type_identifier) @name) @definition.type

(field_declaration_list
  (field_declaration name: (field_identifier) @name) @definition.field)

(method_elem name: (field_identifier) @name) @definition.method

; An embedded type is a field named by its type (gin's `Engine` embeds `RouterGroup`, whose
; methods it offers): `RouterGroup`, `*sync.Mutex`, `http.ResponseWriter` in an interface.

(field_declaration_list
  (field_declaration
    !name
    type: [
      (type_identifier) @name
      (qualified_type name: (type_identifier) @name)
      (pointer_type [(type_identifier) @name (qualified_type name: (type_identifier) @name)])
      (generic_type type: (type_identifier) @name)
    ]) @definition.field)

(interface_type
  (type_elem . (type_identifier) @name .) @definition.field)

; An embedded type is a use of that type too: testify's `struct{ mock.Mock }` in its users'
; code had no `referenced_by`.

(field_declaration_list
  (field_declaration
    !name
    type: [
      (type_identifier) @name
      (qualified_type name: (type_identifier) @name)
      (pointer_type [(type_identifier) @name (qualified_type name: (type_identifier) @name)])
      (generic_type type: (type_identifier) @name)
    ]) @reference.type)

(interface_type
  (type_elem . (qualified_type name: (type_identifier) @name) .) @definition.field)

; Generic parameters are not references.

(type_parameter_declaration name: (identifier) @local.definition)
