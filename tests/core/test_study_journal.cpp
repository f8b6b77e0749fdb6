// A sweep's journal (include/murmur/study/journal.hpp): the rows a journal holds read back,
// a line a kill cut short left out and cut off before the next append, and a resume with other
// flags or other columns refused in one line naming the first difference.
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include <catch2/catch.hpp>

#include "murmur/base/errors.hpp"
#include "murmur/study/journal.hpp"
#include "temp_dir.hpp"

namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
namespace study = murmur::study;

const study::JournalHead kHead{{"--scenario s.toml", "--steps 100"}, "seed,polarization_mean"};

std::string text_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string refusal(const std::string& text, const study::JournalHead& head, std::size_t runs) {
  try {
    study::read_journal(text, "j.partial", head, runs);
  } catch (const murmur::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a journal: rows appended one a run, read back, a cut line left out and cut off",
          "[study][journal]") {
  murmur::test::ScratchDir dir("journal");
  const std::filesystem::path out = dir.path / "sweep.csv";
  const std::filesystem::path path = study::journal_path(out);
  CHECK(path.filename() == "sweep.csv.partial");
  {
    study::JournalFile journal = study::JournalFile::create(path, kHead);
    journal.append(2, "5,0.25");
    journal.append(0, "3,\"a,b\"");
  }
  std::string text = text_of(path);
  study::JournalRows rows = study::read_journal(text, path.string(), kHead, 3);
  CHECK(rows.rows == std::map<std::size_t, std::string>{{0, "3,\"a,b\""}, {2, "5,0.25"}});
  CHECK(rows.whole_bytes == text.size());

  // A kill in the middle of a line: the part is no row, and the next append replaces it.
  {
    std::ofstream cut(path, std::ios::app | std::ios::binary);
    cut << "1,4,0.";
  }
  text = text_of(path);
  rows = study::read_journal(text, path.string(), kHead, 3);
  CHECK(rows.rows.size() == 2);
  CHECK(rows.whole_bytes == text.size() - 6);
  study::JournalFile::reopen(path, rows.whole_bytes).append(1, "4,0.5");
  rows = study::read_journal(text_of(path), path.string(), kHead, 3);
  CHECK(rows.rows.at(1) == "4,0.5");
  CHECK(rows.rows.size() == 3);
}

TEST_CASE("a journal of another sweep, or not a journal, is refused naming --resume",
          "[study][journal]") {
  const std::string head =
      "# murmur sweep journal: the rows of the runs finished so far, each after its run's "
      "number, in the order they finished (docs/sweep.md, \"Resume\")\n"
      "# --scenario s.toml\n# --steps 100\nrun,seed,polarization_mean\n";
  CHECK(refusal(head + "0,1,0.5\n", kHead, 1).empty());

  study::JournalHead other = kHead;
  other.definition[1] = "--steps 200";
  CHECK_THAT(refusal(head, other, 1),
             Equals("--resume: j.partial was begun by another sweep: it has '--steps 100' where "
                    "this one has '--steps 200'"));
  other = kHead;
  other.definition.push_back("--carry-state");
  CHECK_THAT(refusal(head, other, 1),
             Equals("--resume: j.partial was begun by another sweep: it has "
                    "'run,seed,polarization_mean' where this one has '--carry-state'"));
  other = kHead;
  other.header = "seed,polarization_mean,polarization_std";
  CHECK_THAT(refusal(head, other, 1),
             Equals("--resume: j.partial: its rows have other columns than this sweep's "
                    "(seed,polarization_mean)"));
  CHECK_THAT(refusal(head.substr(0, 40), kHead, 1),
             Contains("--resume: j.partial was begun by another sweep: it has nothing where"));
  CHECK_THAT(refusal(head + "1,1,0.5\n", kHead, 1),
             Equals("--resume: j.partial:5: not the row of a run below 1"));
  CHECK_THAT(refusal(head + "x,1,0.5\n", kHead, 1),
             Equals("--resume: j.partial:5: not the row of a run below 1"));
  CHECK_THAT(refusal(head + "0,1,0.5\n0,1,0.5\n", kHead, 1),
             Equals("--resume: j.partial:6: run 0 a second time"));
}
