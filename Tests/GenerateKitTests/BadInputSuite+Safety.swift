/// The second safety round: names from the config that would reach a file
/// name, numbers that are not numbers, and faults that used to be reported
/// at a generated page instead of the line that caused them.
extension BadInputSuite {
  static let library = "  - { id: library, label: Library, facet: buyer, value: \"5\" }"

  static let safetyCases: [Case] = [
    Case(
      name: "a collection id that climbs out of the site",
      edits: [.replace(configFile, "  - id: playlists\n", "  - id: 1️⃣\"../../../../../../tmp/escaped\"\n")],
      file: configFile, message: "id '../../../../../../tmp/escaped' of a collection must be"),
    Case(
      name: "a facet id with a slash",
      edits: [.replace(configFile, "  - { id: genre, label: Genre }", "  - { id: 1️⃣gen/re, label: Genre }")],
      file: configFile, message: "id 'gen/re' of a facet must be"),
    Case(
      name: "a scope id that climbs out of the site",
      edits: [
        .replace(configFile, library, "  - { id: 1️⃣../lib, label: Library, facet: buyer, value: \"5\" }")
      ],
      file: configFile, message: "id '../lib' of a scope must be"),
    Case(
      name: "an id in capitals",
      edits: [.replace(configFile, "  - id: playlists\n", "  - id: 1️⃣Playlists\n")],
      file: configFile, message: "id 'Playlists' of a collection must be 1 to 64 lower-case letters"),
    Case(
      name: "a negative weight",
      edits: [
        .replace(
          configFile, "    search: [artistName, composer]\n",
          "    search: [artistName, composer]\n    weights: { composer: 1️⃣-5 }\n")
      ],
      file: configFile,
      message: "weight '-5' of 'composer' in collection 'songs' must be a number greater than 0"),
    Case(
      name: "a weight that is not a number",
      edits: [
        .replace(
          configFile, "    search: [artistName, composer]\n",
          "    search: [artistName, composer]\n    weights: { composer: 1️⃣nan }\n")
      ],
      file: configFile, message: "weight 'nan' of 'composer'"),
    Case(
      name: "an infinite weight",
      edits: [
        .replace(
          configFile, "    search: [artistName, composer]\n",
          "    search: [artistName, composer]\n    weights: { composer: 1️⃣1e999 }\n")
      ],
      file: configFile, message: "weight '1e999' of 'composer'"),
    Case(
      name: "markup in the data written unescaped by a triple mustache",
      edits: [
        .write(
          "templates/album.mustache",
          "{{<layout}}{{$body}}{{#record}}<h1>1️⃣{{{title}}}</h1>{{/record}}{{/body}}{{/layout}}\n"),
        .replace("data/albums.csv", "Lemonade", "Lemon & <i>ade"),
      ],
      file: "templates/album.mustache", message: "{{{title}}} writes 'title' unescaped"),
    Case(
      name: "markup written unescaped by an ampersand tag in a partial",
      edits: [
        .write("templates/partials/row.mustache", "<li id=\"track-{{id}}\">1️⃣{{& title}}</li>"),
        .replace("data/tracks.csv", "Formation", "Form <ation"),
      ],
      file: "templates/partials/row.mustache", message: "{{&title}} writes 'title' unescaped"),
    Case(
      name: "an output under a symlink into the template folder",
      edits: [.symlink("tpl", to: "templates")], output: "tpl/site",
      message: "is inside the template folder"),
    Case(
      name: "an output under a symlink to the data folder's parent",
      edits: [.symlink("here", to: ".")], output: "here/data",
      message: "refusing to publish there"),
    Case(
      name: "the kept previous site is a symbolic link to a folder of the user's",
      edits: [
        .makeFolder("photos"), .write("photos/me.jpg", "a photo"), .symlink(".site.previous", to: "photos"),
        .replace("data/genres.csv", "3,MPB\n", "3,MPB\n4,Samba\n"),
      ],
      message:
        "'.site.previous' beside the output is a symbolic link to 'photos'; generate owns that name and will not follow it — remove the link"
    ),
    Case(
      name: "the build record's name is a symbolic link",
      edits: [
        .write("notes.txt", "mine"), .remove(".site.record"), .symlink(".site.record", to: "notes.txt"),
      ],
      message: "'.site.record' beside the output is a symbolic link to 'notes.txt'"),
    Case(
      name: "a column name the expression language cannot read",
      edits: [.replace(configFile, "      composer: composer\n", "      composer: composer1️⃣$x\n")],
      file: configFile,
      message: "unexpected '$' (write a column name that is not letters, digits and '_' in backquotes"),
  ]
}
