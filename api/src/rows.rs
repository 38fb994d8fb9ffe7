//! Typed rows: `row!` declares a struct and how it is read from a store row, column by field name.
//!
//! Written as a `macro_rules!` rather than sqlx's `FromRow` derive: the derive needs the
//! `sqlx-macros` proc-macro crate, which compiles sqlx's PostgreSQL and SQLite drivers (bundled
//! SQLite's C included) a second time for the compiler's own use, about a minute and a half of
//! CPU on every fresh clone.

/// Declares a struct whose fields are read from a row (`sqlx::any::AnyRow`) by their names, as
/// `sqlx::query_as` needs. A field marked `#[row(flatten)]` is read from the same row by its own
/// type's `FromRow`.
macro_rules! row {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$field_meta:meta])*
                $(@$flatten:ident)? $field_vis:vis $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $(
                $(#[$field_meta])*
                $field_vis $field: $ty,
            )*
        }

        impl<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> for $name {
            fn from_row(row: &'r sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
                #[allow(unused_imports)]
                use sqlx::Row as _;
                Ok($name {
                    $(
                        $field: $crate::rows::row!(@get row, $field, $ty $(, $flatten)?),
                    )*
                })
            }
        }
    };
    (@get $row:ident, $field:ident, $ty:ty) => {
        $row.try_get(stringify!($field))?
    };
    (@get $row:ident, $field:ident, $ty:ty, flatten) => {
        <$ty as sqlx::FromRow<'_, sqlx::any::AnyRow>>::from_row($row)?
    };
}

pub(crate) use row;

#[cfg(test)]
mod tests {
    row! {
        #[derive(Debug, PartialEq)]
        struct Inner {
            /// A documented column.
            name: String,
            price: Option<i64>,
        }
    }

    row! {
        #[derive(Debug, PartialEq)]
        struct Outer {
            @flatten inner: Inner,
            pub id: i64,
        }
    }

    #[tokio::test]
    async fn rows_are_read_by_column_name_flattened_fields_from_the_same_row() {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect("sqlite::memory:").await.unwrap();
        let outer: Outer =
            sqlx::query_as("SELECT 'scarf' AS name, 7 AS id, CAST(NULL AS INTEGER) AS price")
                .fetch_one(&pool)
                .await
                .unwrap();
        assert_eq!(
            outer,
            Outer {
                inner: Inner {
                    name: "scarf".into(),
                    price: None
                },
                id: 7
            }
        );
        let missing = sqlx::query_as::<_, Inner>("SELECT 1 AS id")
            .fetch_one(&pool)
            .await
            .unwrap_err();
        assert!(
            missing.to_string().contains("name"),
            "names the missing column: {missing}"
        );
    }
}
