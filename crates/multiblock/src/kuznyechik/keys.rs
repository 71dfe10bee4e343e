//! The expanded key every Kuznyechik backend takes ([`Keys`]; the key
//! schedule, `key_schedule.rs`, fills it).

/// The expanded key: round keys K1..K10, each 16 bytes in printed order.
#[derive(Clone)]
pub(crate) struct Keys {
    pub(crate) rk: [[u8; 16]; 10],
}

crate::wipe::wiped_as_slices!(Keys: rk);
