//! A response body read line by line as it arrives, for event streams that never end.

use std::io;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpStream;

/// The body of an answer whose head has been read. Lines come as sent, chunk framing included:
/// event lines are whole lines either way.
pub struct BodyStream {
    reader: BufReader<TcpStream>,
}

impl BodyStream {
    /// Reads past the head of the answer arriving on `stream`.
    pub(crate) async fn after_head(stream: TcpStream) -> io::Result<BodyStream> {
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        loop {
            line.clear();
            if reader.read_line(&mut line).await? == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the stream closed before its headers ended",
                ));
            }
            if line == "\r\n" {
                return Ok(BodyStream { reader });
            }
        }
    }

    /// The next line, its line ending included; `None` once the server closed the stream.
    pub async fn next_line(&mut self) -> io::Result<Option<String>> {
        let mut line = String::new();
        match self.reader.read_line(&mut line).await? {
            0 => Ok(None),
            _ => Ok(Some(line)),
        }
    }

    /// Reads until a line equal to `wanted` (line ending aside): false if the stream closed first.
    pub async fn wait_for_line(&mut self, wanted: &str) -> io::Result<bool> {
        while let Some(line) = self.next_line().await? {
            if line.trim_end() == wanted {
                return Ok(true);
            }
        }
        Ok(false)
    }
}
