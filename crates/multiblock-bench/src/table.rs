//! A titled table with notes, rendered as aligned text or as Markdown.

pub struct Table {
    pub title: String,
    pub notes: Vec<String>,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(title: impl Into<String>, header: &[&str]) -> Table {
        Table { title: title.into(), notes: Vec::new(), header: header.iter().map(|s| s.to_string()).collect(), rows: Vec::new() }
    }

    pub fn note(&mut self, s: impl Into<String>) {
        self.notes.push(s.into());
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// A column is numeric (right-aligned) when its cells are numbers or dashes.
    fn numeric(&self, c: usize) -> bool {
        self.rows.iter().all(|r| {
            let s = r.get(c).map(String::as_str).unwrap_or("");
            s.is_empty() || s == "–" || s.chars().next().is_some_and(|ch| ch.is_ascii_digit()) && !s.contains(' ')
        })
    }

    pub fn text(&self) -> String {
        let mut out = format!("{}\n{}\n", self.title, "=".repeat(self.title.chars().count()));
        for note in &self.notes {
            out.push_str(&format!("  {note}\n"));
        }
        out + &self.grid()
    }

    /// The header and the rows as aligned text, without title or notes.
    pub fn grid(&self) -> String {
        let n = self.header.len();
        let width = |c: usize| {
            self.rows.iter().map(|r| r.get(c).map_or(0, |s| s.chars().count())).chain([self.header[c].chars().count()]).max().unwrap_or(0)
        };
        let widths: Vec<usize> = (0..n).map(width).collect();
        let numeric: Vec<bool> = (0..n).map(|c| self.numeric(c)).collect();
        let line = |cells: &[String]| {
            let mut out = String::new();
            for c in 0..n {
                let s = cells.get(c).map(String::as_str).unwrap_or("");
                let pad = widths[c].saturating_sub(s.chars().count());
                if c > 0 {
                    out.push_str("  ");
                }
                if numeric[c] {
                    out.push_str(&" ".repeat(pad));
                    out.push_str(s);
                } else {
                    out.push_str(s);
                    out.push_str(&" ".repeat(pad));
                }
            }
            out.trim_end().to_string() + "\n"
        };
        let mut out = line(&self.header);
        for r in &self.rows {
            out.push_str(&line(r));
        }
        out
    }

    pub fn markdown(&self) -> String {
        let esc = |s: &str| s.replace('|', "\\|");
        let mut out = format!("### {}\n\n", self.title);
        for note in &self.notes {
            out.push_str(&format!("{}\n", note));
        }
        if !self.notes.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("| {} |\n", self.header.iter().map(|h| esc(h)).collect::<Vec<_>>().join(" | ")));
        let align: Vec<&str> = (0..self.header.len()).map(|c| if self.numeric(c) { "---:" } else { "---" }).collect();
        out.push_str(&format!("|{}|\n", align.join("|")));
        for r in &self.rows {
            out.push_str(&format!("| {} |\n", r.iter().map(|c| esc(c)).collect::<Vec<_>>().join(" | ")));
        }
        out
    }
}
