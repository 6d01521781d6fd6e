//! The service's contract suite: the four REST operations of `service-spec.md`
//! against a real service, a real anvil chain with the demo contracts, and a real
//! database. Every test runs once on SQLite and once on PostgreSQL.

mod access;
mod accounts;
mod added_tokens;
mod approvals;
mod balances;
mod calls;
mod device;
mod external;
mod hardening;
mod identity;
mod instances;
mod keys;
mod names;
mod nfts;
mod prices;
mod recovery;
mod relay;
mod sending;
mod several_accounts;
mod spam;
mod tokens;
mod upstream;
mod wallet_accounts;
mod widget;

use satchel_tests::Backend;

/// Runs each named `async fn(Backend)` as a test per backend.
macro_rules! on_every_backend {
    ($($module:ident :: $test:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    crate::$module::$test(crate::Backend::Sqlite).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    if let Some(backend) = crate::Backend::postgres() {
                        crate::$module::$test(backend).await
                    }
                }
            )*
        }
    };
}

on_every_backend!(
    spam::a_strangers_airdrop_is_hidden_as_spam_until_the_person_shows_it,
    wallet_accounts::a_wallet_adds_its_next_account_on_every_network_proven_by_its_key,
    wallet_accounts::a_wallet_keeps_a_bounded_number_of_accounts,
    several_accounts::a_second_account_receives_and_sends_on_its_own,
    several_accounts::an_account_added_on_another_device_shows_once_the_pin_confirms_it,
    prices::prices_come_from_the_feeds_exactly_and_follow_them,
    approvals::approvals_are_found_in_the_logs_and_withdrawn_ones_go,
    approvals::a_real_approval_is_kept_after_a_flood_of_spam_approvals,
    added_tokens::a_token_added_by_address_is_listed_with_its_exact_balance,
    added_tokens::an_account_adds_a_bounded_number_of_tokens,
    relay::a_user_reads_the_chain_through_the_relay_and_nothing_else,
    relay::a_waiting_client_is_told_the_next_block_as_it_comes,
    device::accounts_that_are_not_the_keys_are_never_shown_or_paid_into,
    device::a_replacement_is_built_from_what_the_device_signed,
    device::chains_and_tokens_are_the_apps_own_not_the_services,
    device::an_inflated_fee_is_signed_only_when_the_person_accepts_it,
    calls::a_contract_call_is_prepared_with_what_it_moves_and_broadcast,
    calls::a_contract_that_pays_only_simulations_shows_nothing_received,
    hardening::a_forwarded_address_cannot_escape_the_per_address_limits,
    hardening::what_takes_a_counter_or_cache_place_is_checked_first,
    hardening::a_refresh_retry_gets_the_same_next_token_and_no_second_live_one,
    hardening::activity_keeps_no_zero_or_dust_transfers,
    hardening::sign_up_floods_leave_room_for_password_resets,
    hardening::an_id_with_a_nul_character_names_nothing_on_every_engine,
    hardening::an_account_keeps_a_bounded_number_of_pending_transactions,
    hardening::the_receipt_follower_reads_the_least_recently_read_first,
    hardening::two_followers_at_once_claim_each_pending_transaction_once,
    accounts::accounts_list_native_then_token_entries_field_by_field,
    accounts::missing_query_parameters_are_a_400_with_the_error_body,
    accounts::an_unknown_wallet_is_a_404,
    accounts::a_kept_account_list_goes_with_a_change_and_is_never_kept_from_before_it,
    balances::a_real_transfer_shows_up_after_a_balance_refresh,
    balances::an_unknown_account_is_a_404,
    balances::refreshing_too_often_is_a_429,
    balances::a_token_added_or_removed_elsewhere_is_read_on_the_next_refresh,
    nfts::a_wallet_without_nfts_gets_an_empty_list,
    nfts::minted_nfts_show_up_after_a_refresh_with_their_metadata,
    nfts::the_grouped_listing_is_the_spec_listing_with_each_collection_once,
    nfts::an_nft_sent_away_disappears_on_the_next_refresh,
    nfts::metadata_that_cannot_be_read_keeps_what_was_read_before,
    nfts::metadata_on_internal_addresses_is_never_requested,
    nfts::a_spam_airdrop_cannot_grow_the_list_past_the_allowance,
    access::every_operation_refuses_missing_or_wrong_app_headers,
    access::every_operation_refuses_missing_garbled_expired_or_foreign_tokens,
    access::a_revoked_session_is_refused,
    access::another_users_ids_get_403_and_no_data,
    access::an_empty_domain_is_taken_only_for_a_localhost_only_app,
    access::only_a_page_of_a_registered_domain_may_read_across_origins,
    upstream::a_node_that_is_down_is_a_502_and_the_rest_keeps_serving,
    upstream::the_openapi_document_and_unknown_routes,
    identity::sign_up_verify_log_in_and_log_out,
    identity::refresh_token_reuse_revokes_the_family,
    identity::a_retried_refresh_is_renewed_and_an_ended_login_ends_its_sessions,
    identity::an_expired_or_refused_access_token_is_renewed_transparently,
    identity::tampered_foreign_and_wrong_purpose_tokens_are_refused,
    identity::every_error_of_the_email_methods_comes_from_a_real_request,
    identity::failed_logins_are_limited_per_account_and_per_address,
    identity::one_address_cannot_lock_out_everyone_else,
    identity::a_device_that_logged_in_before_is_not_locked_out_by_its_neighbours,
    identity::e_mail_endpoints_take_no_unbounded_input,
    identity::the_app_info_says_what_the_key_may_use,
    identity::get_login_session_returns_and_replaces_the_stored_tokens,
    identity::an_unverified_sign_up_does_not_hold_the_address,
    identity::an_unverified_sign_up_expires,
    identity::a_password_reset_link_sets_a_new_password_and_ends_every_session,
    external::an_id_token_logs_in_only_with_its_sign_issuer_audience_key_and_time,
    external::an_app_that_does_not_take_external_tokens_refuses_them,
    external::a_token_without_e_mail_registers_one_then_logs_in_with_the_same_token,
    external::the_widget_registers_an_e_mail_without_the_page_holding_a_token,
    keys::twenty_wrong_pins_since_the_last_right_one_need_the_recovery_phrase,
    keys::registration_needs_a_fresh_nonce_signed_by_the_address,
    keys::wrong_proofs_pause_and_the_right_proof_then_releases_the_share,
    keys::ten_wrong_proofs_lock_until_the_emailed_link_is_opened,
    keys::the_database_alone_holds_no_usable_share_and_parallel_guesses_are_counted,
    keys::a_reset_signed_by_the_wallets_key_sets_a_new_pin_even_when_locked,
    keys::another_user_cannot_read_or_use_a_wallets_pin,
    widget::the_widget_registers_a_wallet_and_shows_it,
    widget::balances_read_ahead_answer_the_first_ask_once,
    widget::a_wallet_whose_key_is_elsewhere_asks_for_the_pin,
    widget::a_lost_registration_answer_keeps_the_key_the_service_has,
    widget::a_retried_registration_reuses_the_key_made_first,
    widget::a_key_that_is_not_the_wallets_is_never_shown_as_the_wallet,
    recovery::the_pins_anyone_guesses_first_are_refused,
    recovery::a_copied_keychain_entry_is_useless_without_the_service,
    recovery::the_phrase_is_shown_behind_the_pin_and_its_confirmation_kept,
    recovery::a_changed_pin_opens_the_key_and_the_old_one_does_not,
    recovery::a_wallet_is_restored_from_its_phrase_on_an_empty_keychain,
    recovery::a_wallet_is_restored_from_the_backup_with_the_pin,
    recovery::without_a_backup_only_the_phrase_restores,
    recovery::a_pin_changed_elsewhere_makes_this_copy_stale_and_counts_nothing,
    widget::a_pending_key_the_service_has_is_taken_after_a_restart,
    widget::login_with_ui_resolves_after_a_login_or_a_close,
    widget::login_with_ui_shows_exactly_the_providers_it_is_given,
    tokens::signing_keys_are_sealed_and_rotate_without_logging_anyone_out,
    tokens::a_clear_text_key_of_an_earlier_version_is_sealed_at_start,
    sending::coin_and_token_sends_move_the_exact_amounts_and_fee,
    sending::two_sends_in_a_row_both_mine,
    sending::many_fast_sends_leave_the_fees_honest_and_unflagged,
    sending::a_pending_send_is_sped_up_or_cancelled,
    sending::a_look_alike_recipient_is_told_in_red_and_a_first_one_in_amber,
    sending::nfts_are_sent_and_the_recipient_holds_them,
    sending::a_deployment_is_made_where_the_review_said,
    sending::a_dropped_transaction_expires_and_frees_its_nonce,
    sending::bad_sends_get_clear_errors_and_move_nothing,
    sending::the_service_broadcasts_only_the_callers_own_signed_transfers,
);

/// The browser's half of CORS, on one engine (what it adds is the browser's).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_in_a_browser_reads_the_four_operations_only_from_a_registered_domain() {
    access::a_page_in_a_browser_reads_the_four_operations_only_from_a_registered_domain().await
}

/// The four operations for a user, as (name, path and query) pairs.
pub fn operations(user: &satchel_tests::User, account_id: &str) -> Vec<(&'static str, String)> {
    vec![
        ("accounts", format!("/v1/account?{}", user.wallet_query())),
        (
            "balance",
            format!("/v1/accountbalance/{account_id}/balance"),
        ),
        ("nfts", format!("/v1/nft?{}", user.wallet_query())),
        (
            "nft refresh",
            format!("/v1/nft/refresh?{}", user.wallet_query()),
        ),
    ]
}

/// The first account id of the user's wallet, from operation 1.
pub async fn first_account_id(stack: &satchel_tests::Stack, user: &satchel_tests::User) -> String {
    let (status, body) = stack
        .get(&format!("/v1/account?{}", user.wallet_query()), &user.token)
        .await;
    assert_eq!(status, 200, "{body}");
    body["accounts"][0]["accountId"]
        .as_str()
        .expect("an accountId")
        .to_owned()
}

/// Asserts the error body of the spec: `{statusCode, code, message}` and nothing else.
pub fn assert_error(
    status: reqwest::StatusCode,
    body: &serde_json::Value,
    expected: u16,
    code: &str,
) {
    assert_eq!(status.as_u16(), expected, "{body}");
    assert_eq!(body["statusCode"], expected, "{body}");
    assert_eq!(body["code"], code, "{body}");
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    assert_eq!(
        body.as_object().map(|o| o.len()),
        Some(3),
        "only the three error fields: {body}"
    );
}
