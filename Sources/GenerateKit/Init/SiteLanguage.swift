/// The language `init` writes for a site, read off its data: `<html
/// lang>` tells screen readers which voice to use, and the site's language
/// chooses word forms and digit grouping. A script that names a language
/// decides it (Cyrillic → ru, Hangul → ko, Devanagari → hi…); Latin text
/// is told apart by its commonest small words (le, der, el, il, o, het…)
/// and letters (ß, ñ, ã), and names that have neither (Alankomaat,
/// Järvenpää) by their spelling (`SiteLanguage+Names`); anything else
/// stays `en`, which a person can change. pycountry's Russian country list got `en` before, and the
/// description "Search 249 страны."
enum SiteLanguage {
  /// Why each language other than English was chosen, for the config's comment.
  static let names = [
    "ja": "Japanese", "ko": "Korean", "zh": "Chinese", "el": "Greek", "th": "Thai", "he": "Hebrew",
    "ru": "Cyrillic", "uk": "Ukrainian Cyrillic", "sr": "Serbian Cyrillic", "kk": "Kazakh Cyrillic",
    "be": "Belarusian Cyrillic", "ar": "Arabic", "fa": "Persian", "ur": "Urdu", "hi": "Devanagari",
    "bn": "Bengali", "ta": "Tamil", "te": "Telugu", "kn": "Kannada", "ml": "Malayalam", "gu": "Gujarati",
    "pa": "Gurmukhi", "ka": "Georgian", "hy": "Armenian", "am": "Ethiopic", "km": "Khmer", "lo": "Lao",
    "my": "Myanmar", "si": "Sinhala", "bo": "Tibetan",
  ]

  /// The languages written in Latin letters that `init` picks, for the config's comment.
  static let latinNames = [
    "fr": "French", "de": "German", "es": "Spanish", "it": "Italian", "pt": "Portuguese", "nl": "Dutch",
    "pl": "Polish", "sv": "Swedish", "da": "Danish", "nb": "Norwegian", "fi": "Finnish", "tr": "Turkish",
    "id": "Indonesian", "vi": "Vietnamese", "cs": "Czech", "ro": "Romanian", "hu": "Hungarian",
  ]

  /// The config's comment on a language: its script, or its words.
  static func comment(_ code: String) -> String? {
    if let script = names[code] { return "most names are written in \(script) script" }
    if let name = latinNames[code] {
      return "the data's small words, letters and spelling are \(name)"
    }
    return nil
  }

  enum Script: Hashable {
    case latin, kana, han, hangul, greek, thai, hebrew, cyrillic, arabic, devanagari, bengali, gurmukhi
    case gujarati, tamil, telugu, kannada, malayalam, sinhala, lao, tibetan, myanmar, georgian, ethiopic
    case khmer, armenian, other
  }

  /// Scripts that name one language (or one before the others, as
  /// Devanagari does Hindi); Cyrillic and Arabic are told apart by letters.
  static let scriptLanguages: [Script: String] = [
    .hangul: "ko", .greek: "el", .thai: "th", .hebrew: "he", .devanagari: "hi", .bengali: "bn",
    .gurmukhi: "pa", .gujarati: "gu", .tamil: "ta", .telugu: "te", .kannada: "kn", .malayalam: "ml",
    .sinhala: "si", .lao: "lo", .tibetan: "bo", .myanmar: "my", .georgian: "ka", .ethiopic: "am",
    .khmer: "km", .armenian: "hy",
  ]

  static func script(of scalar: Unicode.Scalar) -> Script? {
    switch scalar.value {
    case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F: return .latin
    case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return .kana
    case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2A6DF: return .han
    case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: return .hangul
    case 0x370...0x3FF, 0x1F00...0x1FFF: return .greek
    case 0xE00...0xE7F: return .thai
    case 0x590...0x5FF: return .hebrew
    case 0x400...0x52F: return .cyrillic
    case 0x600...0x6FF, 0x750...0x77F, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return .arabic
    case 0x900...0x97F: return .devanagari
    case 0x980...0x9FF: return .bengali
    case 0xA00...0xA7F: return .gurmukhi
    case 0xA80...0xAFF: return .gujarati
    case 0xB80...0xBFF: return .tamil
    case 0xC00...0xC7F: return .telugu
    case 0xC80...0xCFF: return .kannada
    case 0xD00...0xD7F: return .malayalam
    case 0xD80...0xDFF: return .sinhala
    case 0xE80...0xEFF: return .lao
    case 0xF00...0xFFF: return .tibetan
    case 0x1000...0x109F: return .myanmar
    case 0x10A0...0x10FF: return .georgian
    case 0x1200...0x139F: return .ethiopic
    case 0x1780...0x17FF: return .khmer
    case 0x530...0x58F: return .armenian
    default: return scalar.properties.isAlphabetic ? .other : nil
    }
  }

  /// The language of the first collection: the script of its titles (up
  /// to 2,000), else the words of those and of its other text columns.
  static func code(for plan: SitePlan) -> String {
    guard let first = plan.collections.first, let shape = plan.schema.table(first.table) else { return "en" }
    let table = shape.found.table
    // Spread over the whole table: files are often sorted by country, and
    // a world's cities sorted so begin with Brazil's "São …" and "… do …".
    let rows = Array(stride(from: 0, to: table.count, by: max(1, table.count / 2000)))
    let title = shape.profile.columns.first { Naming.expression($0.name) == first.title }?.name
    var titles: [String] = []
    var other: [String] = []
    for column in shape.profile.columns where column.kind == .text {
      guard let index = table.column(named: column.name) else { continue }
      let values = table.columns[index]
      if column.name == title {
        titles = rows.map { values[$0] }
      } else if column.name != shape.key && column.averageWords >= 1.5 && !table.isList(index) {
        // Words, not codes: iso-codes' language types (`L`, `E`, `I`)
        // would read as French `l'` and Italian `e`. Nor lists: a city's
        // alternate names in forty languages say nothing of the site's.
        other += rows.map { values[$0] }
      }
    }
    // Titles that are identifiers (a time zone's `Europe/Zurich`, a
    // locale's `de_CH`) are in no language: the names beside
    // them are (the zone's city as CLDR writes it in Japanese, アンドラ).
    if isIdentifiers(titles) {
      var names: [String] = []
      for column in shape.profile.columns where column.kind == .text && column.name != title {
        guard let index = table.column(named: column.name), !table.isList(index),
          !column.samples.allSatisfy(CollectionContext.isCode)
        else { continue }
        names += rows.map { table.columns[index][$0] }
      }
      if !names.isEmpty { return code(forTitles: names, otherText: names) }
    }
    return code(forTitles: titles.isEmpty ? other : titles, otherText: other)
  }

  /// Nine in ten of the values are one token joined by `/` or `_`, no space.
  static func isIdentifiers(_ values: [String]) -> Bool {
    let filled = values.filter { !$0.isEmpty }
    guard !filled.isEmpty else { return false }
    let identifiers = filled.filter { value in
      !value.contains(" ") && (value.contains("/") || value.contains("_"))
    }
    return identifiers.count * 10 >= filled.count * 9
  }

  /// The language code for these titles (a sample is enough), with other
  /// text of the same records to read Latin words in.
  static func code(forTitles titles: some Sequence<String>, otherText: some Sequence<String> = [String]())
    -> String
  {
    var letters: [Script: Int] = [:]
    var total = 0
    var cyrillic = ""
    var arabic = ""
    for title in titles {
      for scalar in title.unicodeScalars {
        guard let script = script(of: scalar) else { continue }
        letters[script, default: 0] += 1
        total += 1
        if script == .cyrillic { cyrillic.unicodeScalars.append(scalar) }
        if script == .arabic { arabic.unicodeScalars.append(scalar) }
      }
    }
    guard total > 0 else { return "en" }
    let share = { (script: Script) in Double(letters[script, default: 0]) / Double(total) }
    if share(.kana) > 0.05 && share(.kana) + share(.han) > 0.5 { return "ja" }
    if share(.han) > 0.5 { return "zh" }
    for (script, code) in scriptLanguages where share(script) > 0.5 { return code }
    if share(.cyrillic) > 0.5 { return cyrillicLanguage(cyrillic.lowercased()) }
    if share(.arabic) > 0.5 { return arabicLanguage(arabic) }
    guard share(.latin) > 0.5 else { return "en" }
    return latinLanguage(Array(titles) + Array(otherText))
  }

  /// Letters only some Cyrillic alphabets have; Russian otherwise.
  static func cyrillicLanguage(_ letters: String) -> String {
    let marks: [(code: String, letters: String)] = [
      ("uk", "іїєґ"), ("sr", "ђћџј"), ("kk", "әғқңұһ"), ("be", "ў"),
    ]
    var best: (code: String, count: Int) = ("ru", 0)
    for mark in marks {
      let count = letters.reduce(0) { $0 + (mark.letters.contains($1) ? 1 : 0) }
      // A share of letters, not one: a Russian list may name a Ukrainian town.
      if count * 200 > letters.count && count > best.count { best = (mark.code, count) }
    }
    return best.code
  }

  /// Letters Persian and Urdu add to the Arabic alphabet; Arabic otherwise.
  static func arabicLanguage(_ letters: String) -> String {
    let urdu = letters.reduce(0) { $0 + ("ٹڈڑںے".contains($1) ? 1 : 0) }
    let persian = letters.reduce(0) { $0 + ("پچژگ".contains($1) ? 1 : 0) }
    if urdu * 200 > letters.count { return "ur" }
    if persian * 200 > letters.count { return "fa" }
    return "ar"
  }

  /// The commonest small words of each language written in Latin letters
  /// that `init` tells apart.
  static let stopWords: [String: [String]] = [
    "en": ["the", "of", "and", "to", "in", "for", "with", "on", "at", "by", "from", "an", "is", "or"],
    "fr": [
      "le", "la", "les", "de", "des", "du", "et", "en", "un", "une", "pour", "sur", "au", "aux", "dans",
      "par", "avec", "l", "d",
    ],
    "de": [
      "der", "die", "das", "und", "von", "den", "des", "dem", "im", "mit", "für", "zu", "ein", "eine", "auf",
      "bei", "nach", "aus", "zum", "zur",
    ],
    // Not Spanish `al`: it starts Arabic place names in any list (iso-codes'
    // subdivisions: "Al Jizah"), which read as Spanish with it.
    "es": ["el", "la", "los", "las", "de", "del", "y", "en", "un", "una", "por", "con", "para"],
    "it": [
      "il", "lo", "la", "gli", "le", "di", "del", "della", "dei", "delle", "e", "in", "con", "per", "un",
      "una", "da", "nel",
    ],
    "pt": [
      "o", "a", "os", "as", "de", "do", "da", "dos", "das", "e", "em", "com", "para", "um", "uma", "no", "na",
      "ao",
    ],
    "nl": ["de", "het", "een", "en", "van", "in", "op", "met", "voor", "te", "aan", "bij", "niet"],
    "pl": ["i", "w", "z", "na", "do", "się", "nie", "jest", "że", "od", "dla", "oraz", "po", "przez", "ze"],
    "sv": ["och", "att", "det", "som", "på", "är", "av", "för", "med", "till", "den", "om", "ett", "från"],
    "da": ["og", "at", "det", "som", "på", "er", "af", "for", "med", "til", "den", "et", "fra", "ikke"],
    "nb": ["og", "å", "det", "som", "på", "er", "av", "for", "med", "til", "den", "et", "fra", "ikke"],
    "fi": ["ja", "on", "ei", "että", "se", "oli", "kuin", "mutta", "tai", "myös", "sekä", "joka"],
    "tr": ["ve", "bir", "bu", "için", "ile", "olarak", "çok", "gibi", "daha", "veya", "olan", "ya"],
    "id": ["dan", "yang", "di", "ke", "dari", "untuk", "dengan", "pada", "ini", "itu", "adalah", "atau"],
    "vi": ["và", "của", "là", "các", "có", "được", "cho", "trong", "không", "những", "một", "với"],
    "cs": ["a", "v", "se", "na", "je", "že", "s", "z", "do", "pro", "to", "k", "o", "ve"],
    "ro": ["și", "în", "de", "la", "cu", "pe", "un", "o", "din", "care", "este", "pentru"],
    "hu": ["a", "az", "és", "hogy", "nem", "egy", "is", "van", "meg", "ez"],
  ]

  /// Letters that only some of those languages write.
  static let letters: [Character: [String]] = [
    "ß": ["de"], "ä": ["de", "sv", "fi"], "ö": ["de", "sv", "fi", "tr", "hu"], "ü": ["de", "tr", "hu"],
    "ñ": ["es"], "ã": ["pt"], "õ": ["pt"], "ç": ["fr", "pt", "tr"], "ê": ["fr", "pt"], "ô": ["fr", "pt"],
    "â": ["fr", "pt"], "î": ["fr"], "û": ["fr"],
    "œ": ["fr"], "ë": ["fr", "nl"], "ì": ["it"], "ò": ["it"], "è": ["fr", "it"], "ù": ["fr", "it"],
    "à": ["fr", "it", "pt"], "á": ["es", "pt", "cs", "hu"], "í": ["es", "pt", "cs", "hu"],
    "ó": ["es", "pt", "pl", "hu"],
    "ú": ["es", "pt", "cs", "hu"],
    "é": ["fr", "es", "pt", "it", "cs", "hu"],
    "ł": ["pl"], "ą": ["pl"], "ę": ["pl"], "ś": ["pl"], "ź": ["pl"], "ż": ["pl"], "ć": ["pl"], "ń": ["pl"],
    "ı": ["tr"], "ğ": ["tr"], "ş": ["tr"], "ø": ["da", "nb"], "æ": ["da", "nb"], "å": ["sv", "da", "nb"],
    "ř": ["cs"], "ů": ["cs"], "ě": ["cs"], "č": ["cs"], "š": ["cs"], "ž": ["cs"], "ť": ["cs"], "ď": ["cs"],
    "ș": ["ro"], "ț": ["ro"], "ă": ["ro", "vi"], "ő": ["hu"], "ű": ["hu"],
    "ư": ["vi"], "ơ": ["vi"], "đ": ["vi"], "ạ": ["vi"], "ả": ["vi"], "ấ": ["vi"], "ầ": ["vi"], "ậ": ["vi"],
    "ắ": ["vi"], "ằ": ["vi"], "ặ": ["vi"], "ẹ": ["vi"], "ẻ": ["vi"], "ế": ["vi"], "ề": ["vi"], "ể": ["vi"],
    "ễ": ["vi"], "ệ": ["vi"], "ỉ": ["vi"], "ị": ["vi"], "ọ": ["vi"], "ỏ": ["vi"], "ố": ["vi"], "ồ": ["vi"],
    "ổ": ["vi"], "ỗ": ["vi"], "ộ": ["vi"], "ớ": ["vi"], "ờ": ["vi"], "ở": ["vi"], "ợ": ["vi"], "ụ": ["vi"],
    "ủ": ["vi"], "ứ": ["vi"], "ừ": ["vi"], "ử": ["vi"], "ữ": ["vi"], "ự": ["vi"], "ỳ": ["vi"], "ỹ": ["vi"],
  ]

  /// Whether a word touches a `.` or `/` (`No.`, `S.A.`, `A/S`, `S.p.A`,
  /// `sp. z o.o.`): an abbreviation of a company's form or an address, not
  /// the small word it is spelt like (IEEE's register of companies read
  /// as Portuguese by its `No. 2 Road` and `S.A.`). Its letters still count.
  static func isAbbreviation(_ word: Substring, in text: String) -> Bool {
    let marks: Set<Character> = [".", "/"]
    if word.endIndex < text.endIndex, marks.contains(text[word.endIndex]) { return true }
    return word.startIndex > text.startIndex && marks.contains(text[text.index(before: word.startIndex)])
  }

  /// The Latin-script language whose small words and letters the text
  /// holds most, each word shared by n languages counting 1/n for each:
  /// `en` unless another is clearly ahead, in at least one word in fifty
  /// (an English list of airports names a few "Aeroporto de …"), and a
  /// letter counting a quarter of a word.
  static func latinLanguage(_ texts: [String]) -> String {
    var owners: [String: [String]] = [:]
    for (code, words) in stopWords {
      for word in words { owners[word, default: []].append(code) }
    }
    var hits: [String: Double] = [:]
    var words = 0
    // A cell that is a marker of no value (R's `NA`: Czech "na" to the
    // words below, in every column of car90) says nothing of a language.
    for text in texts where !TableProfile.missingWords.contains(text) {
      // Letters and digits together are no word: an engine's `V6` is not
      // the Czech "v" (car90's `Model2`: "Oldsmobile 98 Regency V6").
      let lower = text.lowercased()
      for word in lower.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
      where !word.contains(where: \.isNumber) {
        words += 1
        if !Self.isAbbreviation(word, in: lower), let codes = owners[String(word)] {
          for code in codes { hits[code, default: 0] += 1 / Double(codes.count) }
        }
        // The languages all its marked letters share (`ě` and `é` in
        // "Staroměstské": Czech alone), else any of them.
        var marked = Set<String>()
        var shared: Set<String>?
        for character in word {
          guard let codes = letters[character] else { continue }
          marked.formUnion(codes)
          shared = shared.map { $0.intersection(codes) } ?? Set(codes)
        }
        if let shared, !shared.isEmpty { marked = shared }
        // A letter says less than a word: place names carry them into
        // any list (iso-codes' subdivisions: "Bogotá", "São Paulo").
        for code in marked { hits[code, default: 0] += 0.25 / Double(marked.count) }
      }
    }
    // Clearly ahead of every other language: a world's place names
    // ("São Paulo", "San José", "Saint-Denis") spread their small words
    // over all of them (cities: pt 61, es 46, fr 33; airports: es 32, pt
    // 29), where a list in one language leads the next by 1.8× (emoji
    // names in Italian) to 17× (countries in German).
    if let best = hits.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) {
      let runnerUp = hits.filter { $0.key != best.key }.map(\.value).max() ?? 0
      if best.value * 50 >= Double(words) && best.value >= 3 && best.value >= runnerUp * 1.5 {
        return best.key
      }
    }
    // No small words decide, English's included: names, spelt as one
    // language spells its words or as many do (`SiteLanguage+Names`).
    return namesLanguage(texts) ?? "en"
  }
}
