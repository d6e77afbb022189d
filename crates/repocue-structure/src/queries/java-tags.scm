; Definitions the shipped tags query lacks: enums and their constants, records,
; annotation types and their elements, constructors, fields and interface constants.

(enum_declaration name: (identifier) @name) @definition.enum

(enum_constant name: (identifier) @name) @definition.constant

(record_declaration name: (identifier) @name) @definition.class

(annotation_type_declaration name: (identifier) @name) @definition.interface

(annotation_type_element_declaration name: (identifier) @name) @definition.method

(constructor_declaration name: (identifier) @name) @definition.method

(field_declaration
  declarator: (variable_declarator name: (identifier) @name)) @definition.field

(constant_declaration
  declarator: (variable_declarator name: (identifier) @name)) @definition.constant

; References: type uses.

(type_identifier) @name @reference.type

; A class named as the object of a static call or field access (`StringUtils.isEmpty(s)`,
; `StringUtils.EMPTY`) or of a method reference (`StringUtils::isBlank`): the identifier is
; no type node, yet Java names classes in UpperCamelCase and variables and constants
; otherwise. commons-lang's `StringUtils`, called that way from hundreds of files, had no use.

(method_invocation
  object: (identifier) @name @reference.class
  (#match? @name "^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$"))

(field_access
  object: (identifier) @name @reference.class
  (#match? @name "^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$"))

(method_reference
  . (identifier) @name @reference.class
  (#match? @name "^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$"))

; An annotation uses its annotation type (mockito's `@Mock`, `@Spy`, `@InjectMocks`).

(marker_annotation name: (identifier) @name @reference.type)

(annotation name: (identifier) @name @reference.type)

; Generic parameters are not references.

(type_parameter (type_identifier) @local.definition)
