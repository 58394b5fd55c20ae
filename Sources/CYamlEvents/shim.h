#ifndef GENERATE_CYAMLEVENTS_SHIM_H
#define GENERATE_CYAMLEVENTS_SHIM_H
// libyaml's event parser, as Yams compiles it into the binary (its CYaml
// target, libyaml 0.2.5, which Yams does not export): the five functions
// Config/YAMLExpansion.swift calls and the event they fill, declared as
// libyaml's yaml.h declares them. Nothing is linked here: the symbols are
// Yams'. Only Config/YAMLExpansion.swift imports this module.
#include <stddef.h>

typedef struct {
  size_t index;
  size_t line;
  size_t column;
} generate_yaml_mark;

// yaml_event_type_t
enum {
  GENERATE_YAML_NO_EVENT = 0,
  GENERATE_YAML_STREAM_START_EVENT,
  GENERATE_YAML_STREAM_END_EVENT,
  GENERATE_YAML_DOCUMENT_START_EVENT,
  GENERATE_YAML_DOCUMENT_END_EVENT,
  GENERATE_YAML_ALIAS_EVENT,
  GENERATE_YAML_SCALAR_EVENT,
  GENERATE_YAML_SEQUENCE_START_EVENT,
  GENERATE_YAML_SEQUENCE_END_EVENT,
  GENERATE_YAML_MAPPING_START_EVENT,
  GENERATE_YAML_MAPPING_END_EVENT
};

// yaml_event_t: every kind of event with an anchor has it first.
typedef struct {
  int type;
  union {
    struct { int encoding; } stream_start;
    struct {
      void *version_directive;
      struct { void *start; void *end; } tag_directives;
      int implicit;
    } document_start;
    struct { int implicit; } document_end;
    struct { unsigned char *anchor; } alias;
    struct {
      unsigned char *anchor;
      unsigned char *tag;
      unsigned char *value;
      size_t length;
      int plain_implicit;
      int quoted_implicit;
      int style;
    } scalar;
    struct { unsigned char *anchor; unsigned char *tag; int implicit; int style; } sequence_start;
    struct { unsigned char *anchor; unsigned char *tag; int implicit; int style; } mapping_start;
  } data;
  generate_yaml_mark start_mark;
  generate_yaml_mark end_mark;
} generate_yaml_event;

// yaml_parser_t is 480 bytes on a 64-bit system; the caller allocates
// GENERATE_YAML_PARSER_BYTES for it and never looks inside.
#define GENERATE_YAML_PARSER_BYTES 4096

int yaml_parser_initialize(void *parser);
void yaml_parser_delete(void *parser);
void yaml_parser_set_input_string(void *parser, const unsigned char *input, size_t size);
int yaml_parser_parse(void *parser, generate_yaml_event *event);
void yaml_event_delete(generate_yaml_event *event);

#endif
