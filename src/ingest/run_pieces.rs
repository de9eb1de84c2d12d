//! A TREC run read in pieces of whole lines, each piece parsed into its query blocks, the pieces
//! given back in file order to the consumer of [`super::trec_eval_files::read_run_blocks`].
//! Natively a helper thread parses the pieces the reading thread hands it while the reading
//! thread reads, parses the pieces the helper has no room for, and evaluates; in the browser's
//! worker (no threads) each piece is parsed as it is read.
//!
//! **Invariant**: what the consumer is given — the blocks, the counts, the run id, and the first
//! refusal, at its line — is what reading the file one line at a time gives, whatever the piece
//! size and whichever thread parsed a piece (`tests`: every piece size against one line at a
//! time).

use std::io::BufRead;

use compact_str::CompactString;

use super::LineNumbering;
use super::trec_eval_files::{Flow, QueryBlock, Retrieved, RunFacts, comment_or_blank, run_line};
use crate::error::{IngestError, Location};

/// Bytes per piece (more when a line is longer): handing a piece to a thread costs nothing
/// measurable at this size, and the few pieces in flight stay a few MB.
pub(crate) const PIECE_BYTES: usize = 1 << 20;

/// Parsed pieces kept waiting for an earlier one, at most, before the reading waits for it.
#[cfg(not(target_arch = "wasm32"))]
const WAITING: usize = 4;

/// Whole lines of a run, and where they stand in the file.
struct Piece {
    bytes: Vec<u8>,
    lines_before: usize,
    offset: usize,
}

/// What the reading gives next: a piece, or the failure that ends the reading (after the whole
/// lines read before it).
enum Read {
    Piece(Piece),
    Failed(IngestError),
    End,
}

/// Cuts a stream into pieces of whole lines.
struct Pieces<'r> {
    name: &'r str,
    reader: &'r mut dyn BufRead,
    size: usize,
    /// The start of a line cut by the last piece's end.
    carry: Vec<u8>,
    lines_before: usize,
    offset: usize,
    failed: Option<IngestError>,
}

impl<'r> Pieces<'r> {
    fn new(name: &'r str, reader: &'r mut dyn BufRead, size: usize) -> Self {
        Pieces { name, reader, size: size.max(1), carry: Vec::new(), lines_before: 0, offset: 0, failed: None }
    }

    fn next(&mut self) -> Read {
        if let Some(e) = self.failed.take() {
            return Read::Failed(e);
        }
        let mut bytes = std::mem::take(&mut self.carry);
        bytes.reserve(self.size.saturating_sub(bytes.len()) + (1 << 16));
        // The carry holds no line end.
        let mut last_end: Option<usize> = None;
        loop {
            if bytes.len() >= self.size
                && let Some(end) = last_end
            {
                self.carry = bytes.split_off(end + 1);
                return Read::Piece(self.piece(bytes));
            }
            let buf = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // The whole lines read before the failure come first, as one line at a time.
                    let whole = last_end.map_or(0, |end| end + 1);
                    bytes.truncate(whole);
                    let lines = self.lines_before + memchr::memchr_iter(b'\n', &bytes).count();
                    let failure =
                        IngestError::new(Location::line(self.name, lines + 1), format!("could not be read: {e}"));
                    if bytes.is_empty() {
                        return Read::Failed(failure);
                    }
                    self.failed = Some(failure);
                    return Read::Piece(self.piece(bytes));
                }
            };
            if buf.is_empty() {
                return if bytes.is_empty() { Read::End } else { Read::Piece(self.piece(bytes)) };
            }
            let (start, n) = (bytes.len(), buf.len());
            bytes.extend_from_slice(buf);
            self.reader.consume(n);
            if let Some(i) = memchr::memrchr(b'\n', &bytes[start..]) {
                last_end = Some(start + i);
            }
        }
    }

    fn piece(&mut self, bytes: Vec<u8>) -> Piece {
        let piece = Piece { lines_before: self.lines_before, offset: self.offset, bytes };
        self.lines_before += memchr::memchr_iter(b'\n', &piece.bytes).count();
        self.offset += piece.bytes.len();
        piece
    }
}

/// A piece's lines, parsed: its query blocks in file order (the consecutive lines of one query
/// make a block), its counts and last tag, and its first refusal (nothing after it is parsed).
#[derive(Default)]
struct Parsed {
    blocks: Vec<(CompactString, Vec<Retrieved>)>,
    comments: usize,
    extra_fields: usize,
    lines: usize,
    last_tag: Option<CompactString>,
    refusal: Option<IngestError>,
}

fn parse(name: &str, piece: &Piece) -> Parsed {
    let mut out = Parsed::default();
    let base = piece.bytes.as_ptr() as usize;
    // Where the last data line's tag lies in the piece (bytes), kept instead of a copy per line.
    let mut last_tag: Option<(usize, usize)> = None;
    let mut on_line = |line_no: usize, line: &str, _| {
        if let Some(comment) = comment_or_blank(line) {
            out.comments += comment as usize;
            return Ok(());
        }
        let l = run_line(name, line_no, line)?;
        out.extra_fields += l.extra_fields as usize;
        let doc = Retrieved { docno: l.docno.into(), sim: l.sim, line: l.line as u32 };
        match out.blocks.last_mut() {
            Some((qid, docs)) if qid.as_str() == l.qid => docs.push(doc),
            last => {
                // Runs are cut at one depth: the next block is sized like this one.
                let mut docs = Vec::with_capacity(last.map_or(16, |(_, d)| d.len()));
                docs.push(doc);
                out.blocks.push((l.qid.into(), docs));
            }
        }
        let at = l.tag.as_ptr() as usize - base;
        last_tag = Some((at, at + l.tag.len()));
        out.lines += 1;
        Ok(())
    };
    let mut numbering = LineNumbering::at(piece.lines_before, piece.offset);
    let bytes = piece.bytes.as_slice();
    // Each line as read, its `\n` included.
    let lines = memchr::memchr_iter(b'\n', bytes)
        .map(|end| end + 1)
        .chain((bytes.last() != Some(&b'\n') && !bytes.is_empty()).then_some(bytes.len()))
        .scan(0, |start, end| Some(std::mem::replace(start, end)..end));
    // A piece of UTF-8 (nearly always) is checked once, not line by line.
    let given = match std::str::from_utf8(bytes) {
        Ok(text) => lines.into_iter().try_for_each(|line| numbering.give_text(&text[line], &mut on_line)),
        Err(_) => lines.into_iter().try_for_each(|line| numbering.give(name, &bytes[line], &mut on_line)),
    };
    if let Err(e) = given {
        out.refusal = Some(e);
    }
    // The tag is ASCII-bounded text of the piece.
    out.last_tag = last_tag.and_then(|(a, b)| std::str::from_utf8(&piece.bytes[a..b]).ok()).map(CompactString::from);
    out
}

/// The parsed pieces joined in file order: a block is handed over once the next query begins.
struct Join<'e, 'a> {
    each: &'e mut QueryBlock<'a>,
    pending: Option<(CompactString, Vec<Retrieved>)>,
    runid: Option<CompactString>,
    comments: usize,
    extra_fields: usize,
    lines: usize,
}

impl<'e, 'a> Join<'e, 'a> {
    fn new(each: &'e mut QueryBlock<'a>) -> Self {
        Join { each, pending: None, runid: None, comments: 0, extra_fields: 0, lines: 0 }
    }

    /// The next piece in file order; `Flow::Stop` when the consumer stopped.
    fn take(&mut self, parsed: Parsed) -> Result<Flow, IngestError> {
        for (qid, mut docs) in parsed.blocks {
            match &mut self.pending {
                Some((pending, held)) if *pending == qid => held.append(&mut docs),
                pending => {
                    if let Some((q, mut held)) = pending.replace((qid, docs))
                        && (self.each)(&q, &mut held)? == Flow::Stop
                    {
                        return Ok(Flow::Stop);
                    }
                }
            }
        }
        self.comments += parsed.comments;
        self.extra_fields += parsed.extra_fields;
        self.lines += parsed.lines;
        if parsed.last_tag.is_some() {
            self.runid = parsed.last_tag;
        }
        match parsed.refusal {
            Some(e) => Err(e),
            None => Ok(Flow::Go),
        }
    }

    /// The last block handed over, and what the run holds; `None` when the consumer stopped.
    fn finish(mut self, name: &str) -> Result<Option<RunFacts>, IngestError> {
        if let Some((q, mut held)) = self.pending.take()
            && (self.each)(&q, &mut held)? == Flow::Stop
        {
            return Ok(None);
        }
        let Some(runid) = self.runid else {
            return Err(IngestError::new(Location::file(name), "the run has no results"));
        };
        Ok(Some(RunFacts {
            name: name.to_string(),
            runid: runid.into(),
            comments: self.comments,
            lines_with_extra_fields: self.extra_fields,
            lines: self.lines,
        }))
    }
}

/// Reads a TREC run in pieces of about `piece_bytes` and gives its query blocks to `each`, as
/// reading it one line at a time would (see the module's invariant). `Ok(None)` when `each`
/// stopped.
pub(crate) fn read_run_in_pieces(
    name: &str,
    reader: &mut dyn BufRead,
    piece_bytes: usize,
    each: &mut QueryBlock<'_>,
) -> Result<Option<RunFacts>, IngestError> {
    let mut pieces = Pieces::new(name, reader, piece_bytes);
    let mut join = Join::new(each);
    #[cfg(not(target_arch = "wasm32"))]
    if !on_two_threads(name, &mut pieces, &mut join)? {
        return Ok(None);
    }
    #[cfg(target_arch = "wasm32")]
    loop {
        match pieces.next() {
            Read::Piece(piece) => {
                if join.take(parse(name, &piece))? == Flow::Stop {
                    return Ok(None);
                }
            }
            Read::Failed(e) => return Err(e),
            Read::End => break,
        }
    }
    join.finish(name)
}

/// Parses the pieces on this thread and a helper, joining them in file order; `false` when the
/// consumer stopped.
#[cfg(not(target_arch = "wasm32"))]
fn on_two_threads(name: &str, pieces: &mut Pieces<'_>, join: &mut Join<'_, '_>) -> Result<bool, IngestError> {
    use std::collections::BTreeMap;
    use std::sync::mpsc;
    std::thread::scope(|scope| {
        // One piece waits for the helper at most: the reading thread parses the next one itself
        // when the helper is behind, so the two share the parsing whatever the evaluation costs.
        let (to_helper, queued) = mpsc::sync_channel::<(usize, Piece)>(1);
        let (parsed_tx, parsed_rx) = mpsc::channel::<(usize, Parsed)>();
        scope.spawn(move || {
            for (i, piece) in queued {
                if parsed_tx.send((i, parse(name, &piece))).is_err() {
                    return;
                }
            }
        });
        let mut ready: BTreeMap<usize, Parsed> = BTreeMap::new();
        let (mut read, mut next) = (0usize, 0usize);
        let mut failure = None;
        loop {
            match pieces.next() {
                Read::Piece(piece) => {
                    if let Err(mpsc::TrySendError::Full((_, piece)) | mpsc::TrySendError::Disconnected((_, piece))) =
                        to_helper.try_send((read, piece))
                    {
                        ready.insert(read, parse(name, &piece));
                    }
                    read += 1;
                }
                Read::Failed(e) => {
                    failure = Some(e);
                    break;
                }
                Read::End => break,
            }
            ready.extend(parsed_rx.try_iter());
            while ready.len() > WAITING && !ready.contains_key(&next) {
                match parsed_rx.recv() {
                    Ok((i, p)) => {
                        ready.insert(i, p);
                    }
                    Err(_) => break,
                }
            }
            while let Some(parsed) = ready.remove(&next) {
                next += 1;
                if join.take(parsed)? == Flow::Stop {
                    return Ok(false);
                }
            }
        }
        drop(to_helper);
        while next < read {
            let parsed = match ready.remove(&next) {
                Some(p) => p,
                None => match parsed_rx.recv() {
                    Ok((i, p)) => {
                        ready.insert(i, p);
                        continue;
                    }
                    Err(_) => {
                        return Err(IngestError::new(Location::file(name), "the run could not be parsed to its end"));
                    }
                },
            };
            next += 1;
            if join.take(parsed)? == Flow::Stop {
                return Ok(false);
            }
        }
        match failure {
            Some(e) => Err(e),
            None => Ok(true),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a consumer is given: the blocks, then the facts or the refusal (location, message).
    type Given = (Vec<(String, Vec<(String, u64, u32)>)>, Result<Option<(String, usize, usize, usize)>, String>);

    /// The reading as given, `stop_at` blocks at most.
    fn given(text: &[u8], piece_bytes: Option<usize>, stop_at: usize) -> Given {
        let mut blocks = Vec::new();
        let mut each = |q: &str, docs: &mut Vec<Retrieved>| {
            blocks.push((q.to_string(), docs.iter().map(|d| (d.docno.to_string(), d.sim.to_bits(), d.line)).collect()));
            Ok(if blocks.len() >= stop_at { Flow::Stop } else { Flow::Go })
        };
        let mut reader = text;
        let read = match piece_bytes {
            Some(size) => read_run_in_pieces("r", &mut reader, size, &mut each),
            None => one_line_at_a_time("r", &mut reader, &mut each),
        };
        let facts = read
            .map(|f| f.map(|f| (f.runid, f.comments, f.lines_with_extra_fields, f.lines)))
            .map_err(|e| format!("{} {}", e.location, e.message));
        (blocks, facts)
    }

    /// The reading as it was before pieces: one line at a time, each block handed over as the
    /// next query's line is read.
    fn one_line_at_a_time(
        name: &str,
        reader: &mut dyn BufRead,
        each: &mut QueryBlock<'_>,
    ) -> Result<Option<RunFacts>, IngestError> {
        let mut runid: Option<String> = None;
        let (mut extra, mut n, mut comments) = (0, 0, 0);
        let mut qid = String::new();
        let mut docs: Vec<Retrieved> = Vec::new();
        let mut stopped = false;
        let read = crate::ingest::for_each_line(name, reader, |line_no, line| {
            if let Some(comment) = comment_or_blank(line) {
                comments += comment as usize;
                return Ok(());
            }
            let l = run_line(name, line_no, line)?;
            extra += l.extra_fields as usize;
            if l.qid != qid {
                if !docs.is_empty() {
                    let flow = each(&qid, &mut docs)?;
                    docs.clear();
                    if flow == Flow::Stop {
                        stopped = true;
                        return Err(IngestError::new(Location::file(name), "stopped"));
                    }
                }
                qid = l.qid.to_string();
            }
            docs.push(Retrieved { docno: l.docno.into(), sim: l.sim, line: l.line as u32 });
            runid = Some(l.tag.to_string());
            n += 1;
            Ok(())
        });
        if stopped {
            return Ok(None);
        }
        read?;
        if !docs.is_empty() && each(&qid, &mut docs)? == Flow::Stop {
            return Ok(None);
        }
        let Some(runid) = runid else {
            return Err(IngestError::new(Location::file(name), "the run has no results"));
        };
        Ok(Some(RunFacts { name: name.to_string(), runid, comments, lines_with_extra_fields: extra, lines: n }))
    }

    fn same_at_every_piece_size(text: &[u8]) {
        for stop_at in [1, 2, 3, usize::MAX] {
            let want = given(text, None, stop_at);
            for size in (1..=text.len() + 1).chain([PIECE_BYTES]) {
                assert_eq!(given(text, Some(size), stop_at), want, "piece {size}, stop at {stop_at}");
            }
        }
    }

    #[test]
    fn pieces_give_what_one_line_at_a_time_gives() {
        let cases: [&[u8]; 9] = [
            b"\xEF\xBB\xBF# c\n1 Q0 a 1 2 R\r\n1 Q0 b 2 1.5 R\n2 Q0 c 1 1 R\n\n  \n1 Q0 d 3 0 S extra\n3 Q0 e 1 -0 T",
            b"1 Q0 a 1 2 R\n1 Q0 b 2 x R\n1 Q0 c 3 1 R\n",
            b"1 Q0 a 1 2 R\n2 Q0 b 2 1 R\n2 Q0 c \xFF 1 R\n",
            b"1 Q0 a 1 2 R\n1 Q0 a 1 2\n",
            b"# only a comment\n\n",
            b"",
            b"q Q0 d 1 1e400 R\n",
            b"1 Q0 a 1 2 R\n1 Q0 b 2 1 R\n2 Q0 c 1 1 R\n2 Q0 d 2 0.5 R\n3 Q0 e 1 inf R\n",
            b"a Q0 x 1 1 R\nb Q0 y 1 1 R\na Q0 z 1 1 R\nb Q0 w 1 1 R\nc Q0 v 1 1 R\n",
        ];
        for text in cases {
            same_at_every_piece_size(text);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        #[test]
        fn random_runs_in_pieces_give_what_one_line_at_a_time_gives(
            lines in proptest::collection::vec(
                "(#.{0,3}|[ab] Q0 [a-d]{1,2} 1 (-?[0-9]{1,3}(\\.[0-9]{0,3})?|x) R( z)?|[ab] Q0 d|)(\r)?",
                0..12,
            ),
            last_end in proptest::bool::ANY,
        ) {
            let mut text = lines.join("\n");
            if last_end {
                text.push('\n');
            }
            same_at_every_piece_size(text.as_bytes());
        }
    }

    /// A reader that fails after its bytes.
    struct FailsAfter<'b>(&'b [u8]);

    impl std::io::Read for FailsAfter<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Err(std::io::Error::other("disk gone"));
            }
            let n = buf.len().min(self.0.len()).min(5);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_failed_read_comes_after_the_whole_lines_before_it() {
        let text = b"1 Q0 a 1 2 R\n2 Q0 b 1 1 R\n3 Q0 c";
        let read = |size: Option<usize>| {
            let mut reader = std::io::BufReader::with_capacity(4, FailsAfter(text));
            let mut blocks = Vec::new();
            let mut each = |q: &str, _: &mut Vec<Retrieved>| {
                blocks.push(q.to_string());
                Ok(Flow::Go)
            };
            let e = match size {
                Some(size) => read_run_in_pieces("r", &mut reader, size, &mut each),
                None => one_line_at_a_time("r", &mut reader, &mut each),
            }
            .unwrap_err();
            (blocks, e.location, e.message)
        };
        let want = read(None);
        assert_eq!(want.1, Location::line("r", 3));
        assert_eq!(want.0, ["1"]);
        for size in 1..40 {
            assert_eq!(read(Some(size)), want, "piece {size}");
        }
    }
}
