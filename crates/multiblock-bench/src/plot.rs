//! The report's plot (bench.svg in the report folder, `--plot FILE.svg`):
//! a bar chart of each cipher's fastest constant-time speed against our
//! table code and the peers, and one panel per swept cipher (cycles/byte
//! against blocks per call, one line per backend, the paper's points dashed
//! beside them; with `--size-sweep`, against the data size). Drawn with `plotters` into a string, then written to a temporary
//! file and renamed, so that a failure leaves no partial file.

use crate::papers;
use crate::plan::Report;
use crate::row::{Entry, Kind};
use crate::sections;
use crate::Failure;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

const WIDTH: u32 = 1000;
const PANEL: u32 = 420;
const BAR: u32 = 26;
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

fn fail(e: impl std::fmt::Display) -> Failure {
    Failure::Input(format!("cannot draw the plot: {e}"))
}

/// The swept (kind, cipher) pairs, encryption only (one panel each): the
/// blocks-per-call sweeps, then the size sweeps.
fn panels(r: &Report) -> Vec<(Kind, &'static str)> {
    let mut v: Vec<(Kind, &'static str)> = Vec::new();
    for kind in [Kind::Sweep, Kind::Size] {
        for e in r.entries.iter().filter(|e| e.kind == kind && e.row.direction == "encrypt") {
            if !v.contains(&(kind, e.row.cipher)) {
                v.push((kind, e.row.cipher));
            }
        }
    }
    v
}

/// The x value of a panel's point: blocks per call, or bytes per call.
fn x_of(kind: Kind, e: &Entry) -> f64 {
    if kind == Kind::Size {
        e.row.bytes as f64
    } else {
        e.row.ways as f64
    }
}

/// What a bar stands for (its colour).
#[derive(Clone, Copy, PartialEq)]
enum Side {
    /// Our fastest constant-time backend.
    Ours,
    /// Our table code (not constant-time).
    Table,
    Peer,
}

/// One bar: label, cycles/byte, whose.
struct Bar {
    label: String,
    cpb: f64,
    side: Side,
}

fn bars(r: &Report) -> Vec<Bar> {
    let mut v = Vec::new();
    let peers = sections::peers(r);
    for (id, e) in sections::best_constant_time(r) {
        v.push(Bar { label: format!("{id} ({}, constant-time)", e.row.backend), cpb: e.row.cycles_per_byte, side: Side::Ours });
        if let Some(t) = sections::best_table(r, id) {
            v.push(Bar { label: format!("  ours: {} (not constant-time)", t.row.backend), cpb: t.row.cycles_per_byte, side: Side::Table });
        }
        for p in peers.iter().filter(|p| p.row.cipher == id.name()) {
            v.push(Bar { label: format!("  peer: {}", p.row.peer.unwrap_or(p.row.backend)), cpb: p.row.cycles_per_byte, side: Side::Peer });
        }
    }
    for p in peers.iter().filter(|p| multiblock::CipherId::from_name(p.row.cipher).is_err()) {
        v.push(Bar { label: format!("{} {} ({})", p.row.cipher, p.row.mode.unwrap_or(""), p.row.peer.unwrap_or("")), cpb: p.row.cycles_per_byte, side: Side::Peer });
    }
    v
}

/// Renders the report's plots as an SVG document.
pub fn svg(r: &Report) -> Result<String, Failure> {
    let panels = panels(r);
    let bars = bars(r);
    let bars_height = if bars.is_empty() { 0 } else { 110 + BAR * bars.len() as u32 };
    let height = (PANEL * panels.len() as u32 + bars_height).max(200);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        let mut breaks: Vec<i32> = (1..=panels.len()).map(|i| (PANEL * i as u32) as i32).collect();
        breaks.pop_if(|b| *b as u32 >= height);
        let areas = root.split_by_breakpoints::<i32, i32, _, _>([], breaks);
        for (i, (kind, cipher)) in panels.iter().enumerate() {
            sweep_panel(&areas[i], r, *kind, cipher)?;
        }
        if !bars.is_empty() {
            bar_chart(areas.last().expect("one area at least"), &bars, &r.machine.cpu)?;
        }
        root.present().map_err(fail)?;
    }
    Ok(out)
}

fn sweep_panel(area: &DrawingArea<SVGBackend, plotters::coord::Shift>, r: &Report, kind: Kind, cipher: &str) -> Result<(), Failure> {
    let pts: Vec<&Entry> = r.entries.iter().filter(|e| e.kind == kind && e.row.cipher == cipher && e.row.direction == "encrypt").collect();
    let sizes = kind == Kind::Size;
    let mut backends: Vec<&str> = Vec::new();
    for e in &pts {
        if !backends.contains(&e.row.backend) {
            backends.push(e.row.backend);
        }
    }
    // The paper's columns that have a counterpart among the measured backends.
    let paper: Vec<(&str, &papers::Sweep)> = match sizes {
        true => Vec::new(),
        false => backends.iter().filter_map(|b| papers::sweep_for(cipher, b, "encrypt").map(|s| (*b, s))).collect(),
    };
    let paper_pts = |s: &papers::Sweep| -> Vec<(f64, f64)> {
        s.points.iter().map(|&(w, g, m)| (w as f64, g.min(m))).filter(|p| p.1.is_finite()).collect()
    };
    let ys = pts.iter().map(|e| e.row.cycles_per_byte).chain(paper.iter().flat_map(|(_, s)| paper_pts(s).into_iter().map(|p| p.1)));
    let (ymin, ymax) = ys.fold((f64::INFINITY, 0f64), |(a, b), y| (a.min(y), b.max(y)));
    let xs = pts.iter().map(|e| x_of(kind, e));
    let (xmin, xmax) = xs.fold((f64::INFINITY, 0f64), |(a, b), x| (a.min(x), b.max(x)));
    let mut chart = ChartBuilder::on(area)
        .caption(
            match sizes {
                true => format!("{cipher} encryption: cycles/byte against data size (the method of Golchevsky & Ushakov 2023)"),
                false => format!("{cipher} encryption: cycles/byte against blocks per call (lines: here; dashed: Sovyn et al. 2019)"),
            },
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(65)
        // x is log2(N), so that the labels fall on 1, 2, 4 … 64; y is
        // log10(cycles/byte), labelled and gridded at 1, 2, 5 × 10^k.
        .build_cartesian_2d(xmin.log2() - 0.3..xmax.log2() + 0.3, (ymin * 0.7).log10()..(ymax * 1.4).log10())
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_desc(if sizes { "bytes per call (log scale)" } else { "blocks processed per call (N-way, log scale)" })
        .y_desc("cycles per byte (TSC ticks / byte, log scale)")
        .x_labels((xmax.log2() - xmin.log2()) as usize + 2)
        .x_label_formatter(&|x| match (x - x.round()).abs() < 1e-9 {
            // Size labels every other power of two, so that they fit.
            true if sizes && (x.round() as i64) % 2 == 1 => String::new(),
            true if sizes => sections::size_label(2f64.powf(x.round()) as usize),
            true => format!("{}", 2f64.powf(x.round())),
            false => String::new(),
        })
        .y_labels(100)
        .y_label_formatter(&|y| nice(10f64.powf(*y)))
        .disable_y_mesh()
        .max_light_lines(1)
        .draw()
        .map_err(fail)?;
    for y in nice_values(ymin * 0.7, ymax * 1.4) {
        let (x0, x1) = (xmin.log2() - 0.3, xmax.log2() + 0.3);
        chart.draw_series(LineSeries::new([(x0, y.log10()), (x1, y.log10())], BLACK.mix(0.15))).map_err(fail)?;
    }
    for (i, b) in backends.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let line: Vec<(f64, f64)> = pts.iter().filter(|e| e.row.backend == *b).map(|e| (x_of(kind, e).log2(), e.row.cycles_per_byte.log10())).collect();
        chart
            .draw_series(LineSeries::new(line.clone(), color.stroke_width(2)))
            .map_err(fail)?
            .label(format!("{b} (here)"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
        chart.draw_series(line.into_iter().map(|p| Circle::new(p, 3, color.filled()))).map_err(fail)?;
        if let Some((_, s)) = paper.iter().find(|(pb, _)| pb == b) {
            let pp: Vec<(f64, f64)> = paper_pts(s).into_iter().map(|(w, c)| (w.log2(), c.log10())).collect();
            chart
                .draw_series(DashedLineSeries::new(pp.clone(), 6, 4, color.stroke_width(1)))
                .map_err(fail)?
                .label(format!("paper: {} [{}]", s.column, s.source.tag))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 8, y), (x + 12, y), (x + 20, y)], color.stroke_width(1)));
            chart.draw_series(pp.into_iter().map(|p| Cross::new(p, 4, color.stroke_width(1)))).map_err(fail)?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(fail)?;
    Ok(())
}

/// 1, 2 and 5 times the powers of ten between `lo` and `hi`.
fn nice_values(lo: f64, hi: f64) -> Vec<f64> {
    let mut v = Vec::new();
    let mut decade = 10f64.powf(lo.log10().floor());
    while decade <= hi {
        v.extend([1.0, 2.0, 5.0].iter().map(|m| m * decade).filter(|&y| y >= lo && y <= hi));
        decade *= 10.0;
    }
    v
}

/// A log-axis label at a key point near 1, 2 or 5 × 10^k; blank elsewhere.
fn nice(y: f64) -> String {
    let step = 10f64.powf(y.log10().floor());
    match [1.0, 2.0, 5.0, 10.0].iter().find(|m| ((y / step) / *m - 1.0).abs() < 0.012) {
        Some(m) if m * step >= 1.0 => format!("{:.0}", m * step),
        Some(m) => format!("{}", m * step),
        None => String::new(),
    }
}

fn bar_chart(area: &DrawingArea<SVGBackend, plotters::coord::Shift>, bars: &[Bar], cpu: &str) -> Result<(), Failure> {
    let (lo, hi) = bars.iter().fold((f64::INFINITY, 0f64), |(a, b), x| (a.min(x.cpb), b.max(x.cpb)));
    let x0 = lo / 2.0;
    let n = bars.len() as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(format!("Best constant-time speed of each cipher against table code and peers (ECB encryption, {cpu})"), ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(10)
        .build_cartesian_2d((x0..hi * 40.0).log_scale(), n..0f64)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .x_desc("cycles per byte (TSC ticks / byte, log; shorter is faster)")
        .x_label_formatter(&|x| nice(*x))
        .max_light_lines(1)
        .draw()
        .map_err(fail)?;
    let label_style = TextStyle::from(("sans-serif", 13).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, b) in bars.iter().enumerate() {
        let y = i as f64;
        let color = match b.side {
            Side::Ours => PALETTE[0],
            Side::Table => RGBColor(120, 170, 210),
            Side::Peer => RGBColor(150, 150, 150),
        };
        chart.draw_series([Rectangle::new([(x0, y + 0.15), (b.cpb, y + 0.85)], color.filled())]).map_err(fail)?;
        let text = format!("{}  {:.2}", b.label, b.cpb);
        chart
            .draw_series([Text::new(text, (b.cpb * 1.08, y + 0.5), label_style.clone())])
            .map_err(fail)?;
    }
    Ok(())
}

/// Fails early (before measuring) when `path` cannot be written: its
/// folder does not exist or it is a folder.
pub fn check_target(path: &Path) -> Result<(), Failure> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(Failure::Input(format!("cannot write {}: no such folder {}", path.display(), dir.display())));
    }
    if path.is_dir() {
        return Err(Failure::Input(format!("cannot write {}: it is a folder (expected FILE.svg)", path.display())));
    }
    Ok(())
}

/// Writes the SVG next to `path` and renames it into place.
pub fn write(path: &Path, r: &Report) -> Result<(), Failure> {
    let doc = svg(r)?;
    let tmp = path.with_extension("svg.partial");
    std::fs::write(&tmp, doc.as_bytes())
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            Failure::Input(format!("cannot write {}: {}", path.display(), crate::os_error::plain(&e)))
        })
}
