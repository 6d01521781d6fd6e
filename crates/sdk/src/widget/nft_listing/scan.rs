//! Finds the parts of the grouped listing's JSON as its chunks arrive: the
//! value of its `collections` member, then each element of its `nfts` list,
//! each handed over whole the moment its last byte is in, so that the listing
//! is parsed (each part by `serde_json::from_slice`, fast) while the rest is
//! still on its way and its text is never held whole. Only the JSON's
//! structure is followed here (strings, nesting, the top object's members);
//! whether each part is what it should be is the parser's to say.

use std::ops::Range;

/// A part of the listing, whole.
pub(super) enum Part<'b> {
    Collections(&'b [u8]),
    Nft(&'b [u8]),
}

/// Where the scan is in the listing's object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// Before its `{`.
    Start,
    /// After `{`: a member's name, or `}`.
    FirstName,
    /// After `,`: a member's name.
    Name,
    /// After a name: its `:`.
    Colon(Member),
    /// A member's value (not `nfts`').
    Value(Member),
    /// `nfts`' value: its `[`.
    ListOpen,
    /// After `[`: an NFT, or `]`.
    FirstNft,
    /// After `,` in the list: an NFT.
    Nft,
    /// After an NFT: `,` or `]`.
    AfterNft,
    /// After a member's value: `,` or `}`.
    AfterValue,
    /// After the object: nothing but white space.
    Done,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Member {
    Collections,
    Nfts,
    Other,
}

/// A value whose end is being looked for, where the last chunk left it.
#[derive(Debug, Clone, Copy)]
struct Value {
    start: usize,
    next: usize,
    depth: u32,
    in_string: bool,
    escaped: bool,
}

#[derive(Debug)]
pub(super) struct Scan {
    /// What came and is not handed over yet: the part under way.
    pending: Vec<u8>,
    /// How far `pending` is read.
    read: usize,
    at: At,
    value: Option<Value>,
}

impl Default for Scan {
    fn default() -> Self {
        Self {
            pending: Vec::new(),
            read: 0,
            at: At::Start,
            value: None,
        }
    }
}

impl Scan {
    /// Takes in the next chunk and hands each part it completes to `part`,
    /// in order. An error (the listing's own, or `part`'s) ends the scan.
    pub fn feed<E>(
        &mut self,
        chunk: &[u8],
        mut part: impl FnMut(Part<'_>) -> Result<(), E>,
        malformed: impl Fn(&'static str) -> E,
    ) -> Result<(), E> {
        self.pending.extend_from_slice(chunk);
        while let Some(byte) = self.next_byte() {
            let punctuation =
                |expected: u8, next: At| (byte == expected).then_some(next).ok_or("not a listing");
            let step = match self.at {
                At::Start => punctuation(b'{', At::FirstName),
                // (A value under way is scanned on: `byte` is not its first.)
                At::FirstName if byte == b'}' && self.value.is_none() => Ok(At::Done),
                At::FirstName | At::Name if self.value.is_none() && byte != b'"' => {
                    Err("a member's name is not a string")
                }
                At::FirstName | At::Name => match self.value_end(byte) {
                    Ok(Some(name)) => Ok(At::Colon(match &self.pending[name] {
                        b"\"collections\"" => Member::Collections,
                        b"\"nfts\"" => Member::Nfts,
                        _ => Member::Other,
                    })),
                    other => other.map(|_| self.at),
                },
                At::Colon(Member::Nfts) => punctuation(b':', At::ListOpen),
                At::Colon(member) => punctuation(b':', At::Value(member)),
                At::Value(member) => match self.value_end(byte) {
                    Ok(Some(value)) => {
                        if member == Member::Collections {
                            part(Part::Collections(&self.pending[value]))?;
                        }
                        Ok(At::AfterValue)
                    }
                    other => other.map(|_| self.at),
                },
                At::ListOpen => punctuation(b'[', At::FirstNft).map_err(|_| "nfts is not a list"),
                At::FirstNft if byte == b']' && self.value.is_none() => Ok(At::AfterValue),
                At::FirstNft | At::Nft => match self.value_end(byte) {
                    Ok(Some(nft)) => {
                        part(Part::Nft(&self.pending[nft]))?;
                        Ok(At::AfterNft)
                    }
                    other => other.map(|_| self.at),
                },
                At::AfterNft if byte == b']' => Ok(At::AfterValue),
                At::AfterNft => punctuation(b',', At::Nft),
                At::AfterValue if byte == b'}' => Ok(At::Done),
                At::AfterValue => punctuation(b',', At::Name),
                At::Done => Err("something after the listing"),
            };
            self.at = step.map_err(&malformed)?;
        }
        self.keep_only_the_part_under_way();
        Ok(())
    }

    /// Whether all of the listing came.
    pub fn finish(&self) -> Result<(), &'static str> {
        if self.at == At::Done {
            Ok(())
        } else {
            Err("the listing ends early")
        }
    }

    /// The next byte that is not white space, read; `None` for more to come.
    /// A value under way is not skipped into: its scan goes on where it was.
    fn next_byte(&mut self) -> Option<u8> {
        if let Some(value) = self.value {
            return self.pending.get(value.next).copied();
        }
        while let Some(&byte) = self.pending.get(self.read) {
            self.read += 1;
            if !byte.is_ascii_whitespace() {
                return Some(byte);
            }
        }
        None
    }

    /// The value that starts with `first` (just read), when all of it is in:
    /// where it is in `pending`. `None` for more to come; the scan goes on from
    /// where it stopped at the next chunk.
    fn value_end(&mut self, first: u8) -> Result<Option<Range<usize>>, &'static str> {
        let mut value = match self.value.take() {
            Some(value) => value,
            None => {
                let start = self.read - 1;
                if matches!(first, b'}' | b']' | b',' | b':') {
                    return Err("a value is missing");
                }
                Value {
                    start,
                    next: start,
                    depth: 0,
                    in_string: false,
                    escaped: false,
                }
            }
        };
        while let Some(&byte) = self.pending.get(value.next) {
            value.next += 1;
            if value.in_string {
                match byte {
                    _ if value.escaped => value.escaped = false,
                    b'\\' => value.escaped = true,
                    b'"' => {
                        value.in_string = false;
                        if value.depth == 0 {
                            return Ok(Some(self.ended(value.start, value.next)));
                        }
                    }
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => value.in_string = true,
                b'{' | b'[' => value.depth += 1,
                b'}' | b']' if value.depth == 0 => {
                    // The end of what holds a number, `true`, `false` or `null`.
                    return Ok(Some(self.ended(value.start, value.next - 1)));
                }
                b'}' | b']' => {
                    value.depth -= 1;
                    if value.depth == 0 {
                        return Ok(Some(self.ended(value.start, value.next)));
                    }
                }
                b',' if value.depth == 0 => {
                    return Ok(Some(self.ended(value.start, value.next - 1)));
                }
                _ if value.depth == 0 && byte.is_ascii_whitespace() => {
                    return Ok(Some(self.ended(value.start, value.next - 1)));
                }
                _ => {}
            }
        }
        self.value = Some(value);
        Ok(None)
    }

    /// A value found at `start..end`: the scan reads on after it.
    fn ended(&mut self, start: usize, end: usize) -> Range<usize> {
        self.read = end;
        start..end
    }

    /// Lets go of what was handed over, keeping the part under way.
    fn keep_only_the_part_under_way(&mut self) {
        let keep_from = self.value.map_or(self.read, |v| v.start);
        self.pending.drain(..keep_from);
        self.read -= keep_from;
        if let Some(value) = &mut self.value {
            value.start -= keep_from;
            value.next -= keep_from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parts `json` hands over when it comes in chunks of `size` bytes.
    fn parts(json: &str, size: usize) -> Result<Vec<String>, &'static str> {
        let mut scan = Scan::default();
        let mut found = Vec::new();
        for chunk in json.as_bytes().chunks(size) {
            scan.feed(
                chunk,
                |part| {
                    found.push(match part {
                        Part::Collections(json) => format!("C {}", String::from_utf8_lossy(json)),
                        Part::Nft(json) => format!("N {}", String::from_utf8_lossy(json)),
                    });
                    Ok(())
                },
                |what| what,
            )?;
        }
        scan.finish()?;
        Ok(found)
    }

    #[test]
    fn each_part_is_handed_over_whole_however_the_chunks_fall() {
        let json = r#" { "before": [1, {"x": "}]"}, null], "n": -1.5e3, "t": true,
            "collections" : [{"name": "A \"quoted\" {name}", "address": "0xA"}],
            "nfts": [ {"id": "a", "name": "back\\slash ]", "tags": [[], {}]},
                      {"id": "b", "quantity": 12} ,{"id":"c"}],
            "after": "x" } "#;
        let whole = parts(json, json.len()).expect("scanned");
        assert_eq!(
            whole,
            [
                r#"C [{"name": "A \"quoted\" {name}", "address": "0xA"}]"#,
                r#"N {"id": "a", "name": "back\\slash ]", "tags": [[], {}]}"#,
                r#"N {"id": "b", "quantity": 12}"#,
                r#"N {"id":"c"}"#,
            ]
        );
        for size in [1, 2, 3, 7, 64] {
            assert_eq!(
                parts(json, size).expect("scanned"),
                whole,
                "chunks of {size}"
            );
        }
        // Let go of once handed over: what waits is the part under way.
        let mut scan = Scan::default();
        let nft = format!(r#"{{"id": "{}"}}"#, "x".repeat(4096));
        scan.feed(b"{\"nfts\": [", |_| Ok::<_, ()>(()), |_| ())
            .expect("fed");
        for _ in 0..100 {
            scan.feed(format!("{nft},").as_bytes(), |_| Ok(()), |_| ())
                .expect("fed");
            assert!(
                scan.pending.len() <= nft.len() + 1,
                "{}",
                scan.pending.len()
            );
        }
    }

    #[test]
    fn what_is_not_a_whole_listing_is_refused() {
        for (json, why) in [
            ("[]", "not a listing"),
            (r#"{"nfts": {}}"#, "nfts is not a list"),
            (r#"{"nfts": [1 2]}"#, "not a listing"),
            (r#"{"nfts": [,]}"#, "a value is missing"),
            (r#"{"collections" []}"#, "not a listing"),
            (r#"{1: 2}"#, "a member's name is not a string"),
            (r#"{"nfts": []} {}"#, "something after the listing"),
            (r#"{"nfts": [{"id": "a"}"#, "the listing ends early"),
            (r#"{"nfts": [{"id": "a}]}"#, "the listing ends early"),
            ("", "the listing ends early"),
        ] {
            for size in [1, 5, 100] {
                assert_eq!(parts(json, size), Err(why), "{json} in chunks of {size}");
            }
        }
        assert_eq!(parts(r#"{}"#, 1), Ok(vec![]));
        assert_eq!(parts(r#"{"nfts": []}"#, 1), Ok(vec![]));
    }
}
