// The plan as an AutoCAD 2000 DXF, through Debian's libdxflib (include/murmur/plan/export/plan_export.hpp).
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include <dl_dxf.h>
#include <dl_writer_ascii.h>

#include "murmur/base/atomic_file.hpp"
#include "murmur/base/errors.hpp"
#include "murmur/base/float_text.hpp"
#include "murmur/plan/export/plan_export.hpp"

namespace murmur {
namespace {

// A stroke one world unit wide draws at 0.25 mm, CAD's default lineweight, so origin 003's widths
// 1 and 2 print as the usual thin and medium pens.
constexpr float kDxfLineweightPerWidth = 25.0f;
// The lineweights (hundredths of a millimetre) that AutoCAD accepts in a layer, ascending.
constexpr std::array<int, 24> kDxfLineweights = {0,  5,  9,  13, 15, 18,  20,  25,
                                                 30, 35, 40, 50, 53, 60,  70,  80,
                                                 90, 100, 106, 120, 140, 158, 200, 211};
// Lineweight -3: the CAD program's default, for layer "0", which holds no plan strokes.
constexpr int kDxfDefaultLineweight = -3;
// AutoCAD colour index 7: black on a white sheet, white on a dark model space.
constexpr int kDxfInkColour = DL_Codes::white;
// An LWPOLYLINE's flags: 0 is an open polyline (1 would close it).
constexpr int kDxfOpenPolyline = 0;
// What the last group of a complete DXF file says (DL_WriterA::dxfEOF writes it).
constexpr std::string_view kDxfEnd = "EOF\n";

// The layer for every entity that names none: CAD programs expect layer "0" to exist.
const DL_LayerData kDefaultLayer("0", 0);

std::string read_whole_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The tables, blocks and objects a CAD program needs around the entities, in the order of
// libdxflib's own writing example; `write_entities` fills the ENTITIES section.
template <class WriteEntities>
void write_document(DL_Dxf& dxf, DL_WriterA& writer, const std::map<float, std::string>& layers,
                    WriteEntities write_entities) {
  dxf.writeHeader(writer);
  writer.sectionEnd();

  writer.sectionTables();
  dxf.writeVPort(writer);
  writer.tableLinetypes(1);
  dxf.writeLinetype(writer, DL_LinetypeData("CONTINUOUS", "Continuous", 0, 0, 0.0));
  dxf.writeLinetype(writer, DL_LinetypeData("BYLAYER", "", 0, 0, 0.0));
  dxf.writeLinetype(writer, DL_LinetypeData("BYBLOCK", "", 0, 0, 0.0));
  writer.tableEnd();
  writer.tableLayers(static_cast<int>(layers.size()) + 1);
  dxf.writeLayer(writer, kDefaultLayer,
                 DL_Attributes("", kDxfInkColour, kDxfDefaultLineweight, "CONTINUOUS", 1.0));
  for (const auto& [width, name] : layers) {
    dxf.writeLayer(writer, DL_LayerData(name, 0),
                   DL_Attributes("", kDxfInkColour, plan_dxf_lineweight(width), "CONTINUOUS",
                                 1.0));
  }
  writer.tableEnd();
  writer.tableStyle(1);
  dxf.writeStyle(writer, DL_StyleData("Standard", 0, 0.0, 1.0, 0.0, 0, 2.5, "txt", ""));
  writer.tableEnd();
  dxf.writeView(writer);
  dxf.writeUcs(writer);
  writer.tableAppid(1);
  dxf.writeAppid(writer, "ACAD");
  writer.tableEnd();
  dxf.writeDimStyle(writer, 2.5, 0.625, 0.625, 0.625, 2.5);
  dxf.writeBlockRecord(writer);
  writer.tableEnd();
  writer.sectionEnd();

  writer.sectionBlocks();
  for (const char* block : {"*Model_Space", "*Paper_Space", "*Paper_Space0"}) {
    dxf.writeBlock(writer, DL_BlockData(block, 0, 0.0, 0.0, 0.0));
    dxf.writeEndBlock(writer, block);
  }
  writer.sectionEnd();

  writer.sectionEntities();
  write_entities();
  writer.sectionEnd();

  dxf.writeObjects(writer);
  dxf.writeObjectsEnd(writer);
  writer.dxfEOF();
}

}  // namespace

std::string plan_dxf_layer(float width) {
  std::string name = "width-";
  append_float(name, width);
  return name;
}

int plan_dxf_lineweight(float width) {
  const float wanted = width * kDxfLineweightPerWidth;
  int nearest = kDxfLineweights.front();
  for (const int lineweight : kDxfLineweights) {
    if (std::abs(static_cast<float>(lineweight) - wanted) <
        std::abs(static_cast<float>(nearest) - wanted)) {
      nearest = lineweight;
    }
  }
  return nearest;
}

void write_plan_dxf(const std::filesystem::path& path,
                    const std::vector<PlanStroke>& strokes) {
  std::map<float, std::string> layers;  // by width, so the layer table's order is fixed
  for (const PlanStroke& stroke : strokes) layers.emplace(stroke.width, plan_dxf_layer(stroke.width));

  // libdxflib writes only to a file it opens itself and reports no write errors. It writes a
  // hidden scratch file beside the output; the text is complete only if it ends with the EOF
  // group (a failed write stops the stream for good), and is then published whole through an
  // AtomicFile like every other output.
  const std::filesystem::path scratch =
      path.parent_path() / atomic_temporary_name(path.filename().string(), "dxflib");
  struct RemoveScratch {
    const std::filesystem::path& path;
    ~RemoveScratch() {
      std::error_code ignored;
      std::filesystem::remove(path, ignored);
    }
  } remove_scratch{scratch};
  {
    DL_Dxf dxf;
    std::unique_ptr<DL_WriterA> writer(dxf.out(scratch.c_str(), DL_Codes::AC1015));
    if (!writer) throw OutputError(path.string() + ": cannot create output file");
    write_document(dxf, *writer, layers, [&] {
      for (const PlanStroke& stroke : strokes) {
        const DL_Attributes attributes(layers.at(stroke.width), DL_Codes::bylayer, -1, "BYLAYER",
                                       1.0);
        dxf.writePolyline(*writer,
                          DL_PolylineData(static_cast<int>(stroke.points.size()), 0, 0,
                                          kDxfOpenPolyline),
                          attributes);
        for (const glm::vec2 point : stroke.points) {
          dxf.writeVertex(*writer, DL_VertexData(point.x, point.y));
        }
        dxf.writePolylineEnd(*writer);
      }
    });
    writer->close();
  }
  const std::string text = read_whole_file(scratch);
  if (!text.ends_with(kDxfEnd)) {
    throw OutputError(path.string() + ": writing the DXF failed (libdxflib's file is incomplete)");
  }
  write_file_atomically(path, text);
}

}  // namespace murmur
