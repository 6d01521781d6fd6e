//! The prompt queue on its own: what the person is asked, in what order, and
//! what happens to a prompt nobody waits for any more.

use std::sync::Arc;
use std::time::Duration;

use satchel_connect::{Ask, Extensions, Origin, Permissions, ProviderError, Wallet as _};
use satchel_sdk::{Login, MemoryStore, Widget};
use tokio::task::JoinHandle;

use super::{ConnectPrompt, Dapps, MAX_WAITING};

fn dapps(dir: &tempfile::TempDir) -> Arc<Dapps> {
    let store = Arc::new(MemoryStore::default());
    let widget = Arc::new(Widget::new(
        Arc::new(Login::new("app", "key", store.clone())),
        store,
    ));
    let permissions = Arc::new(Permissions::open(&dir.path().join("connected-apps.json")));
    let extensions = Arc::new(Extensions::open(&dir.path().join("extensions.json")));
    Arc::new(
        Dapps::new(widget, permissions, extensions, || {})
            .with_port_file(dir.path().join("endpoint-port")),
    )
}

fn site(n: usize) -> Origin {
    Origin::Web(format!("https://site{n}.example"))
}

/// A connect request of `origin`, waiting on the person in a task.
fn asks(dapps: &Arc<Dapps>, origin: Origin) -> JoinHandle<Result<super::Answer, ProviderError>> {
    let dapps = dapps.clone();
    tokio::spawn(async move {
        dapps
            .ask(
                &origin,
                Ask::Connect {
                    through_extension: false,
                },
            )
            .await
    })
}

/// The page's prompt once it satisfies `shown` (the queue's head and how many wait).
async fn page_shows(
    dapps: &Dapps,
    shown: impl Fn(&Option<ConnectPrompt>) -> bool,
) -> Option<ConnectPrompt> {
    let mut page = dapps.watch_prompts();
    let seen = tokio::time::timeout(Duration::from_secs(5), page.wait_for(|p| shown(p)))
        .await
        .expect("the page shows it in time")
        .expect("the queue is there");
    seen.clone()
}

#[tokio::test]
async fn a_request_nobody_waits_for_leaves_the_queue_and_is_never_answered() {
    let dir = tempfile::tempdir().expect("a folder");
    let dapps = dapps(&dir);
    let request = asks(&dapps, site(1));
    let prompt = page_shows(&dapps, Option::is_some).await.expect("a prompt");
    // The site gives up (an aborted fetch): its request is dropped.
    request.abort();
    page_shows(&dapps, Option::is_none).await;
    // The person's late answer finds nothing to sign or send.
    dapps
        .answer(prompt.id, true, None, None, None)
        .await
        .expect("a late answer is no error");
    assert!(dapps.queue.lock().is_empty());
}

#[tokio::test]
async fn abandoned_prompts_do_not_fill_the_queue_for_other_sites() {
    let dir = tempfile::tempdir().expect("a folder");
    let dapps = dapps(&dir);
    let flood: Vec<_> = (0..MAX_WAITING).map(|n| asks(&dapps, site(n))).collect();
    page_shows(&dapps, |p| {
        p.as_ref()
            .is_some_and(|p| p.waiting as usize == MAX_WAITING - 1)
    })
    .await;
    // At the bound another site is told to wait (-32002)…
    let refused = dapps
        .ask(
            &site(99),
            Ask::Connect {
                through_extension: false,
            },
        )
        .await;
    assert_eq!(refused.map_err(|e| e.code).err(), Some(-32002));
    // …until the flood's requests are given up.
    for request in &flood {
        request.abort();
    }
    page_shows(&dapps, Option::is_none).await;
    let request = asks(&dapps, site(99));
    let shown = page_shows(&dapps, Option::is_some).await.expect("a prompt");
    assert_eq!(shown.origin, "https://site99.example");
    request.abort();
}

#[tokio::test]
async fn prompts_come_in_order_and_one_answer_settles_only_its_own() {
    let dir = tempfile::tempdir().expect("a folder");
    let dapps = dapps(&dir);
    let first = asks(&dapps, site(1));
    let first_prompt = page_shows(&dapps, Option::is_some).await.expect("a prompt");
    let second = asks(&dapps, site(2));
    page_shows(&dapps, |p| p.as_ref().is_some_and(|p| p.waiting == 1)).await;
    assert_eq!(first_prompt.origin, "https://site1.example");

    dapps
        .answer(first_prompt.id, false, None, None, None)
        .await
        .expect("rejected");
    let answered = first.await.expect("the task");
    assert_eq!(answered.map_err(|e| e.code).err(), Some(4001));
    let next = page_shows(&dapps, |p| p.as_ref().is_some_and(|p| p.waiting == 0))
        .await
        .expect("the second");
    assert_eq!(next.origin, "https://site2.example");
    assert!(!second.is_finished(), "the other site still waits");

    // Closing the window rejects what is left.
    dapps.reject_all();
    let answered = second.await.expect("the task");
    assert_eq!(answered.map_err(|e| e.code).err(), Some(4001));
}

#[tokio::test]
async fn disconnecting_a_site_rejects_what_it_asked_and_leaves_the_others() {
    let dir = tempfile::tempdir().expect("a folder");
    let dapps = dapps(&dir);
    let theirs = asks(&dapps, site(1));
    page_shows(&dapps, Option::is_some).await;
    let others = asks(&dapps, site(2));
    page_shows(&dapps, |p| p.as_ref().is_some_and(|p| p.waiting == 1)).await;
    dapps.disconnect("https://site1.example");
    let answered = theirs.await.expect("the task");
    assert_eq!(answered.map_err(|e| e.code).err(), Some(4001));
    let left = page_shows(&dapps, |p| p.as_ref().is_some_and(|p| p.waiting == 0))
        .await
        .expect("the other site's");
    assert_eq!(left.origin, "https://site2.example");
    others.abort();
}

#[tokio::test]
async fn the_window_is_told_each_network_switch_of_a_site() {
    let dir = tempfile::tempdir().expect("a folder");
    let dapps = dapps(&dir);
    let mut window = dapps.watch_switches();
    assert_eq!(*window.borrow_and_update(), None);
    dapps.switched(&site(1), "ethereum", 1);
    let told = window.borrow_and_update().clone().expect("told");
    assert_eq!(
        (
            told.origin.as_str(),
            told.local,
            told.network.as_str(),
            told.chain_id
        ),
        ("https://site1.example", false, "ethereum", 1)
    );
    // The same switch again is another notice; a program is named as one.
    dapps.switched(&Origin::Local, "ethereum", 1);
    let again = window.borrow_and_update().clone().expect("told");
    assert!(again.id > told.id);
    assert!(again.local);
}

#[tokio::test]
async fn a_taken_port_is_told_and_the_endpoint_moves_to_another_kept_for_the_next_start() {
    let dir = tempfile::tempdir().expect("a folder");
    let dapps = dapps(&dir);
    // Another program holds the port.
    let other = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let taken = other.local_addr().expect("its address").port();
    dapps.serve(taken).await;
    let told = dapps.watch_endpoint().borrow().clone();
    assert_eq!((told.port, told.serving), (taken, false));
    assert!(
        told.problem.as_deref().is_some_and(|p| p.contains("taken")),
        "{told:?}"
    );
    // A port taken too is refused, saying so; a free one is moved to.
    let refused = dapps.move_endpoint(taken).await.expect_err("taken");
    assert!(refused.message.contains("taken"), "{}", refused.message);
    assert!(dapps.move_endpoint(80).await.is_err(), "a system port");
    let free = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
        probe.local_addr().expect("its address").port()
    };
    let moved = dapps.move_endpoint(free).await.expect("moved");
    assert_eq!(
        (moved.port, moved.serving, moved.problem),
        (free, true, None)
    );
    let answer = tokio::net::TcpStream::connect(("127.0.0.1", free)).await;
    assert!(answer.is_ok(), "the endpoint listens on the new port");
    // Kept for the next start, unless the variable names one.
    assert_eq!(dapps.port_at_start(1248, false), free);
    assert_eq!(dapps.port_at_start(1248, true), 1248);
    assert_eq!(dapps.port_at_start(0, false), 0, "0 keeps it off");
}
