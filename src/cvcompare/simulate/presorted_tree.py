"""A classification-tree grower on presorted features, split for split scikit-learn's.

:class:`~.pruned_tree.OneSETreeClassifier` grows eleven trees per fit (the tree and one
per internal cross-validation fold), and the Friedman experiments fit it 3,600 times per
replication. scikit-learn sorts the samples of every node anew and validates its input on
every call; this grower sorts each feature once per fit, keeps every node's samples in
sorted order for every feature (a stable partition at each split, as ``rpart`` does) and
runs compiled (numba).

It grows the tree of :class:`sklearn.tree.DecisionTreeClassifier` with the Gini criterion,
``splitter="best"``, all features and no weights: depth-first, left child first (so node
ids are in preorder), a node is a leaf when ``depth >= max_depth``, it has fewer than
``min_split`` or ``2 * min_leaf`` samples, its impurity is ``<= eps``, or no feature
separates it; split candidates lie between sorted float32 values more than ``1e-7``
apart with ``min_leaf`` samples on each side; the best maximises scikit-learn's proxy
``-n_R gini_R - n_L gini_L`` (same arithmetic); the threshold is the midpoint
``x_prev / 2 + x_next / 2`` in double precision. The one difference: among splits of
exactly equal proxy on different features, scikit-learn keeps the first in a random
feature order and this grower the first in column order (within a feature both keep the
lowest threshold).

References
----------
Breiman, Friedman, Olshen & Stone (1984), *Classification and Regression Trees*, Ch. 2
and 4 (Gini splitting). Therneau & Atkinson, *An Introduction to Recursive Partitioning
Using the RPART Routines* (presorted features).
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["PresortedTree", "presort", "pruned_leaf_map", "weakest_link"]

_FEATURE_THRESHOLD = np.float32(1e-7)
_EPSILON = np.finfo(np.float64).eps


@numba.njit(cache=True)
def _gini(counts: np.ndarray, w: float) -> float:
    sq = 0.0
    for c in range(counts.size):
        sq += counts[c] * counts[c]
    return 1.0 - sq / (w * w)


@numba.njit(cache=True)
def _grow(XT, y, n_classes, order, min_split, min_leaf, max_depth, min_risk):  # noqa: C901, PLR0912, PLR0915
    # XT is (p, n): a feature's values are contiguous, so a node's scan stays in cache
    p, n = XT.shape
    cap = 2 * n + 1
    left = np.full(cap, -1, np.int64)
    right = np.full(cap, -1, np.int64)
    feature = np.full(cap, -2, np.int64)
    threshold = np.full(cap, -2.0)
    counts = np.zeros((cap, n_classes))
    ord_ = order.copy()
    buf = np.empty(n, np.int64)
    to_left = np.zeros(n, np.bool_)
    # stack of (start, end, depth, parent, is_left, impurity)
    s_start = np.empty(cap, np.int64)
    s_end = np.empty(cap, np.int64)
    s_depth = np.empty(cap, np.int64)
    s_parent = np.empty(cap, np.int64)
    s_left = np.empty(cap, np.bool_)
    s_imp = np.empty(cap)
    sp = 0
    s_start[0], s_end[0], s_depth[0], s_parent[0], s_left[0], s_imp[0] = 0, n, 0, -1, False, np.inf
    sp = 1
    node_count = 0
    cl = np.zeros(n_classes)
    total = np.zeros(n_classes)
    while sp > 0:
        sp -= 1
        start, end, depth = s_start[sp], s_end[sp], s_depth[sp]
        parent, is_left, impurity = s_parent[sp], s_left[sp], s_imp[sp]
        m = end - start
        total[:] = 0.0
        for i in range(start, end):
            total[y[ord_[0, i]]] += 1.0
        if node_count == 0:
            impurity = _gini(total, float(m))
        is_leaf = depth >= max_depth or m < min_split or m < 2 * min_leaf or impurity <= _EPSILON
        is_leaf = is_leaf or m - total.max() <= min_risk
        best_f, best_pos, best_thr = -1, end, 0.0
        best_il, best_ir = 0.0, 0.0
        if not is_leaf:
            best_proxy = -np.inf
            for f in range(p):
                if XT[f, ord_[f, end - 1]] <= XT[f, ord_[f, start]] + _FEATURE_THRESHOLD:
                    continue  # constant in this node
                cl[:] = 0.0
                moved = start  # samples [start, moved) are counted in cl
                q = start
                while q < end:
                    q += 1
                    while (
                        q < end and XT[f, ord_[f, q]] <= XT[f, ord_[f, q - 1]] + _FEATURE_THRESHOLD
                    ):
                        q += 1
                    if q == end:
                        break
                    if q - start < min_leaf or end - q < min_leaf:
                        continue
                    while moved < q:
                        cl[y[ord_[f, moved]]] += 1.0
                        moved += 1
                    wl = float(q - start)
                    wr = float(end - q)
                    sq_l = 0.0
                    sq_r = 0.0
                    for c in range(n_classes):
                        sq_l += cl[c] * cl[c]
                        cr = total[c] - cl[c]
                        sq_r += cr * cr
                    g_l = 1.0 - sq_l / (wl * wl)
                    g_r = 1.0 - sq_r / (wr * wr)
                    proxy = -wr * g_r - wl * g_l
                    if proxy > best_proxy:
                        best_proxy = proxy
                        best_f, best_pos = f, q
                        best_thr = (
                            np.float64(XT[f, ord_[f, q - 1]]) / 2.0
                            + np.float64(XT[f, ord_[f, q]]) / 2.0
                        )
                        best_il, best_ir = g_l, g_r
            if best_f < 0:
                is_leaf = True
        node = node_count
        node_count += 1
        if parent >= 0:
            if is_left:
                left[parent] = node
            else:
                right[parent] = node
        counts[node] = total
        if is_leaf:
            continue
        feature[node] = best_f
        threshold[node] = best_thr
        for i in range(start, end):
            row = ord_[best_f, i]
            to_left[row] = np.float64(XT[best_f, row]) <= best_thr
        for f in range(p):  # stable partition of every feature's sorted segment
            a, b = start, 0
            for i in range(start, end):
                row = ord_[f, i]
                if to_left[row]:
                    ord_[f, a] = row
                    a += 1
                else:
                    buf[b] = row
                    b += 1
            for i in range(b):
                ord_[f, a + i] = buf[i]
        # right child pushed first, so the left one is grown first (preorder ids)
        s_start[sp], s_end[sp], s_depth[sp] = best_pos, end, depth + 1
        s_parent[sp], s_left[sp], s_imp[sp] = node, False, best_ir
        sp += 1
        s_start[sp], s_end[sp], s_depth[sp] = start, best_pos, depth + 1
        s_parent[sp], s_left[sp], s_imp[sp] = node, True, best_il
        sp += 1
    return (
        left[:node_count],
        right[:node_count],
        feature[:node_count],
        threshold[:node_count],
        counts[:node_count],
    )


@numba.njit(cache=True)
def _apply(X, left, right, feature, threshold):
    out = np.empty(X.shape[0], np.int64)
    for i in range(X.shape[0]):
        t = 0
        while left[t] >= 0:
            t = left[t] if np.float64(X[i, feature[t]]) <= threshold[t] else right[t]
        out[i] = t
    return out


@numba.njit(cache=True)
def weakest_link(left, right, risk, root_risk):  # noqa: PLR0912
    """Kernel of :func:`~.pruned_tree.weakest_link_cp` (node ids in preorder).

    Each round sums the risks and counts the leaves of every current subtree from the
    children up, finds the smallest gain per added leaf, collapses the weakest nodes
    (within ``1e-9 * root_risk``) with everything below them, and makes the topmost of
    nested weakest nodes a leaf.

    Parameters
    ----------
    left, right : numpy.ndarray of int64, shape (n_nodes,)
        Children of each node, -1 for a leaf; every child's id is larger than its parent's.
    risk : numpy.ndarray, shape (n_nodes,)
        Misclassification count of each node taken as a leaf.
    root_risk : float
        The divisor of the complexities (the root's risk, > 0).

    Returns
    -------
    numpy.ndarray, shape (n_nodes,)
        The relative complexity at which each node is collapsed; 0 for the leaves of the
        grown tree.
    """
    n = left.size
    parent = np.full(n, -1, np.int64)
    for t in range(n):
        if left[t] >= 0:
            parent[left[t]] = t
            parent[right[t]] = t
    collapse = np.zeros(n)
    active = left >= 0
    is_leaf = ~active
    leaf_risk = np.empty(n)
    n_leaves = np.empty(n)
    gain = np.empty(n)
    below = np.zeros(n, np.bool_)
    while active.any():
        for t in range(n - 1, -1, -1):  # children before parents
            leaf_risk[t] = risk[t] if is_leaf[t] else 0.0
            n_leaves[t] = 1.0 if is_leaf[t] else 0.0
            if left[t] >= 0:
                leaf_risk[t] += leaf_risk[left[t]] + leaf_risk[right[t]]
                n_leaves[t] += n_leaves[left[t]] + n_leaves[right[t]]
        g_min = np.inf
        for t in range(n):
            gain[t] = np.inf
            if active[t]:
                gain[t] = (risk[t] - leaf_risk[t]) / (n_leaves[t] - 1.0)
                g_min = min(g_min, gain[t])
        for t in range(n):  # parents before children
            weakest = active[t] and gain[t] <= g_min + 1e-9 * root_risk
            under_weakest = parent[t] >= 0 and below[parent[t]]
            below[t] = weakest or under_weakest
            if below[t] and active[t]:
                collapse[t] = g_min / root_risk
            is_leaf[t] = (is_leaf[t] and not below[t]) or (weakest and not under_weakest)
        for t in range(n):
            active[t] = active[t] and not below[t]
    return collapse


@numba.njit(cache=True)
def pruned_leaf_map(left, right, collapse, cps):
    """Kernel of :func:`~.pruned_tree._pruned_leaf_map` (node ids in preorder).

    Parameters
    ----------
    left, right : numpy.ndarray of int64, shape (n_nodes,)
        Children of each node, -1 for a leaf; every child's id is larger than its parent's.
    collapse : numpy.ndarray, shape (n_nodes,)
        From :func:`weakest_link`.
    cps : numpy.ndarray, shape (c,)
        The relative complexities of the pruned trees.

    Returns
    -------
    numpy.ndarray of int64, shape (c, n_nodes)
        For every ``cp`` and node, the shallowest ancestor (inclusive) whose collapse
        value is ``<= cp``, or the node itself.
    """
    n = left.size
    rep = np.empty((cps.size, n), np.int64)
    for c in range(cps.size):
        for t in range(n):
            rep[c, t] = t
        for t in range(n):  # parents before children
            if left[t] >= 0 and collapse[t] <= cps[c]:
                rep[c, left[t]] = rep[c, t]
                rep[c, right[t]] = rep[c, t]
    return rep


def presort(X32: np.ndarray) -> np.ndarray:
    """``(p, n)``: for every feature, the row indices sorted by its float32 values.

    Parameters
    ----------
    X32 : numpy.ndarray, shape (n, p)
        float32 features.

    Returns
    -------
    numpy.ndarray of intp, shape (p, n)
        A stable sort: tied rows keep their order.
    """
    return np.argsort(X32, axis=0, kind="stable").T.copy()


class PresortedTree:
    """A grown tree with the attributes of a fitted scikit-learn classification tree.

    ``tree_`` is the tree itself (``children_left``, ``children_right``, ``feature``,
    ``threshold``, ``value`` as class proportions of shape ``(n_nodes, 1, n_classes)``,
    ``weighted_n_node_samples``, ``node_count``), so the pruning functions of
    :mod:`.pruned_tree` read it as they read scikit-learn's.

    Parameters
    ----------
    X32 : numpy.ndarray
        ``(n, p)`` float32 features.
    y : numpy.ndarray
        ``(n,)`` labels.
    order : numpy.ndarray
        :func:`presort` of ``X32`` (computed once and filtered for subsets, see
        :meth:`grow_subset`).
    min_split, min_leaf, max_depth : int
        As ``min_samples_split``, ``min_samples_leaf``, ``max_depth`` of scikit-learn.
    min_cp : float
        Nodes whose misclassification count is at most ``min_cp`` times the root's are not
        split (``rpart``'s stopping rule for its ``cp``); 0 grows scikit-learn's tree. No
        such node is internal in a cost-complexity subtree optimal at any ``cp >= min_cp``
        (an internal node ``t`` of the optimal subtree at ``alpha`` has
        ``R(t) - R(T_t) > alpha (|T_t| - 1) >= alpha``), so the subtrees, their weakest-link
        values and predictions at every ``cp >= min_cp`` are those of the full tree.
    """

    def __init__(
        self,
        X32,
        y,
        order,
        *,
        min_split: int,
        min_leaf: int,
        max_depth: int,
        min_cp: float = 0.0,
    ):
        self.classes_, y_int = np.unique(y, return_inverse=True)
        root_risk = y_int.size - np.bincount(y_int).max()
        left, right, feature, threshold, counts = _grow(
            np.ascontiguousarray(X32.T),
            y_int.astype(np.int64),
            self.classes_.size,
            order,
            min_split,
            min_leaf,
            max_depth,
            float(min_cp) * root_risk,
        )
        self.children_left, self.children_right = left, right
        self.feature, self.threshold = feature, threshold
        self.weighted_n_node_samples = counts.sum(axis=1)
        self.value = (counts / self.weighted_n_node_samples[:, None])[:, None, :]
        self.node_count = left.size
        self.tree_ = self

    @classmethod
    def grow_subset(cls, X32, y, order, rows: np.ndarray, **kwargs) -> PresortedTree:
        """Grow on the rows where the boolean ``rows`` is true, reusing the presorting.

        Parameters
        ----------
        X32 : numpy.ndarray, shape (n, p)
            float32 features of all rows.
        y : numpy.ndarray, shape (n,)
            Labels of all rows.
        order : numpy.ndarray, shape (p, n)
            :func:`presort` of ``X32``.
        rows : numpy.ndarray of bool, shape (n,)
            The rows to grow on.
        **kwargs
            The keyword arguments of the constructor (``min_split``, ``min_leaf``,
            ``max_depth``, ``min_cp``).

        Returns
        -------
        PresortedTree
            Grown on the selected rows, as if they were presorted anew.
        """
        position = np.cumsum(rows) - 1
        kept = order[rows[order]].reshape(order.shape[0], -1)
        return cls(X32[rows], y[rows], position[kept], **kwargs)

    def apply(self, X) -> np.ndarray:
        """Leaf (node id) reached by every row of ``X``.

        Parameters
        ----------
        X : array_like, shape (m, p)
            Features, compared as float32 (as the tree was grown).

        Returns
        -------
        numpy.ndarray of int64, shape (m,)
            Node ids of the leaves.
        """
        X32 = np.ascontiguousarray(X, dtype=np.float32)
        return _apply(X32, self.children_left, self.children_right, self.feature, self.threshold)
