#pragma once
// The docs' key tables, generated from the parameter tables so that they cannot go stale:
// docs/scenarios.md holds each between `<!-- BEGIN <name>: ... -->` and `<!-- END <name> -->`
// lines, and `murmur_paramgen docs check` (a ctest test) fails when they differ.
#include <string>
#include <string_view>
#include <vector>

#include "murmur/scenario/look.hpp"

namespace murmur::params {

struct DocSection {
  std::string name;    // "species keys"
  std::string source;  // the table it comes from, named in the BEGIN line
  std::string text;    // markdown, ending in a newline
};

// Every generated section, in the order docs/scenarios.md shows them. `render_defaults`: the
// renderer's default for each [render] key (look_of(RenderSettings{}); the core has no
// renderer).
std::vector<DocSection> generated_doc_sections(const LookParams& render_defaults);

// `document` with the text of every generated section replaced by the current one. Throws
// InputError naming `document_name` and the section when a BEGIN or END line is missing.
std::string with_generated_sections(std::string_view document, const std::string& document_name,
                                    const LookParams& render_defaults);

}  // namespace murmur::params
