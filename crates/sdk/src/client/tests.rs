//! The service client's tests: redirects, the answer's bound, how long an
//! answer may take, plain HTTP.

use super::*;

#[tokio::test]
async fn a_redirect_is_not_followed_so_the_app_key_stays_home() {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let elsewhere = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let elsewhere_port = elsewhere.local_addr().expect("addr").port();
    let reached = tokio::spawn(async move { elsewhere.accept().await.is_ok() });
    let service = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let service_url: Url = format!("http://{}/", service.local_addr().expect("addr"))
        .parse()
        .expect("url");
    tokio::spawn(async move {
        let (mut socket, _) = service.accept().await.expect("accepted");
        let mut request = [0u8; 4096];
        let _ = socket.read(&mut request).await;
        let answer = format!(
            "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:{elsewhere_port}/v1/app\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        let _ = socket.write_all(answer.as_bytes()).await;
    });
    let client = RestClient::new(
        &ServiceConfig::new(service_url, "app.example"),
        "the-app-key",
    )
    .expect("client");
    let answer: Result<serde_json::Value, _> = client
        .send(Caller::Login, Method::GET, "v1/app", None, None)
        .await;
    assert!(answer.is_err(), "a redirect is an error, not followed");
    assert!(!reached.is_finished(), "nothing went to the other host");
    reached.abort();
}

/// A service on this machine answering one request with `head` (the status
/// line and headers), then `body_chunks` chunks of 1 KiB.
async fn answering(head: &'static str, body_chunks: usize) -> Url {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let service = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("http://{}/", service.local_addr().expect("addr"))
        .parse()
        .expect("url");
    tokio::spawn(async move {
        let (mut socket, _) = service.accept().await.expect("accepted");
        let mut request = [0u8; 4096];
        let _ = socket.read(&mut request).await;
        let _ = socket.write_all(head.as_bytes()).await;
        let chunk = format!("400\r\n{}\r\n", "x".repeat(1024));
        for _ in 0..body_chunks {
            if socket.write_all(chunk.as_bytes()).await.is_err() {
                return; // the client stopped reading
            }
        }
        let _ = socket.write_all(b"0\r\n\r\n").await;
    });
    url
}

#[tokio::test]
async fn an_answer_past_the_bound_is_refused_unread() {
    // Announced too large: refused before any of it is read.
    let url = answering(
        "HTTP/1.1 200 OK\r\nContent-Length: 1099511627776\r\nContent-Type: application/json\r\n\r\n",
        0,
    )
    .await;
    let client = RestClient::new(&ServiceConfig::new(url, "app.example"), "key").expect("client");
    let answer: Result<serde_json::Value, _> = client
        .send(Caller::Rest, Method::GET, "v1/nft", None, None)
        .await;
    let error = answer.expect_err("refused");
    assert!(error.to_string().contains("too large"), "{error}");

    // Sent without a length: read up to the bound, then refused.
    let chunked =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n";
    let url = answering(chunked, 64).await;
    let response = reqwest::get(url).await.expect("answers");
    let error = read_bounded(response, 16 * 1024)
        .await
        .expect_err("refused");
    assert!(error.to_string().contains("too large"), "{error}");
    // Under the bound, the whole answer.
    let url = answering(chunked, 8).await;
    let response = reqwest::get(url).await.expect("answers");
    let body = read_bounded(response, 16 * 1024).await.expect("read");
    assert_eq!(body.len(), 8 * 1024);
}

#[test]
fn plain_http_is_only_for_this_machine() {
    for ok in [
        "https://wallet.example.com/",
        "http://127.0.0.1:8787/",
        "http://localhost:8787/",
        "http://[::1]:8787/",
    ] {
        assert!(check_service_url(&ok.parse().expect("url")).is_ok(), "{ok}");
    }
    for bad in [
        "http://wallet.example.com/",
        "http://192.168.1.5/",
        "ftp://wallet.example.com/",
    ] {
        assert!(
            check_service_url(&bad.parse().expect("url")).is_err(),
            "{bad}"
        );
    }
}

/// A service on this machine that takes each request and answers none until
/// `answer` is sent, then answers every request taken with `{}`.
async fn holding_answers() -> (Url, tokio::sync::watch::Sender<bool>) {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let service = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!("http://{}/", service.local_addr().expect("addr"))
        .parse()
        .expect("url");
    let (answer, held) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = service.accept().await {
            let mut held = held.clone();
            tokio::spawn(async move {
                let mut request = [0u8; 4096];
                let _ = socket.read(&mut request).await;
                let _ = held.wait_for(|go| *go).await;
                let _ = socket
                    .write_all(
                        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
                    )
                    .await;
            });
        }
    });
    (url, answer)
}

#[tokio::test]
async fn the_nft_listing_may_take_longer_than_any_other_answer() {
    // The service refreshes the NFTs on the chain before it answers: 23 s for
    // 100,000 of them. Here the client's timeout is short, and the service
    // answers only once another request has run out of it.
    let (url, answer) = holding_answers().await;
    let mut config = ServiceConfig::new(url, "app.example");
    config.timeout = Duration::from_millis(200);
    let client = RestClient::new(&config, "key").expect("client");
    let listing = {
        let client = client.clone();
        tokio::spawn(async move {
            let answer = client
                .send_for_answer(
                    Caller::Rest,
                    Method::GET,
                    "v1/nft/refresh",
                    None,
                    None,
                    NFT_LISTING,
                )
                .await?;
            answer.whole().await
        })
    };
    let other: Result<serde_json::Value, _> = client
        .send(Caller::Rest, Method::GET, "v1/app", None, None)
        .await;
    let error = other.expect_err("any other answer may take the client's timeout");
    assert!(
        error.to_string().contains("did not answer in time"),
        "{error}"
    );
    answer.send(true).expect("the service is there");
    let listing = listing.await.expect("the task").expect("the listing came");
    assert_eq!(listing, b"{}");
}
