; Definitions the shipped tags query lacks: class attributes.

(class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @name) @definition.field)))

; References: base classes and annotations.

(class_definition
  superclasses: (argument_list (identifier) @name @reference.class))

(type (identifier) @name @reference.type)

(generic_type (identifier) @name @reference.type)
